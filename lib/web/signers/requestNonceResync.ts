import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { addJob } from '@/lib/jobs/addJob'
import { nonceResyncJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { NonceResyncPayload } from '@/lib/jobs/payloadTypes'
import { NotFoundError } from '@/lib/web/errors/resource'

export type RequestNonceResyncParameters = { signerAddress: string; actor: AdminActor; maxAttempts: number }

export type RequestNonceResyncReturnType = { jobId: string; signerAddress: string }

/**
 * An admin asks for one signer's nonces to be read again from the chain (decision 064): in ONE transaction the
 * worker's nonce_resync job with `{ signerAddress }` (one waiting per signer) and its `nonce.resync` audit row.
 * The web writes no nonce (invariant 7): the worker's task does the resync. An unknown signer: 404, nothing written.
 */
export async function requestNonceResync(
  db: Db,
  p: RequestNonceResyncParameters,
): Promise<RequestNonceResyncReturnType> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ address: string }>(
      sql`select address from signers where lower(address) = ${p.signerAddress.toLowerCase()}`,
    )
    const signerAddress = rows[0]?.address
    if (!signerAddress) throw new NotFoundError({ what: 'Signer' })
    const { jobId } = await addJob(tx, {
      task: TASK.nonceResync,
      payload: { signerAddress } satisfies NonceResyncPayload,
      jobKey: nonceResyncJobKey(signerAddress),
      maxAttempts: p.maxAttempts,
      actor: p.actor.email,
      detail: `resync of ${signerAddress}'s nonces from the chain`,
    })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'nonce.resync',
      targetType: 'signer',
      targetId: signerAddress,
      detail: { jobId: jobId.toString() },
    })
    return { jobId: jobId.toString(), signerAddress }
  })
}
