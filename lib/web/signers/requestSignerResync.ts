import { sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { requestNonceResync } from '@/lib/jobs/requestNonceResync'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { signerResyncQueuedSchema } from './responseSchemas'

export type RequestSignerResyncParameters = { signerAddress: string; actor: AdminActor }

export type RequestSignerResyncReturnType = z.infer<typeof signerResyncQueuedSchema>

/**
 * An admin asks for one signer's nonces to be read again from the chain (decision 064): in ONE transaction the
 * worker's nonce_resync job with `{ signerAddress }` (one waiting per signer) and its `nonce.resync` audit row.
 * The web writes no nonce (invariant 7): the worker's task does the resync. An unknown signer: 404, nothing written.
 */
export async function requestSignerResync(
  db: Db,
  p: RequestSignerResyncParameters,
): Promise<RequestSignerResyncReturnType> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ address: string }>(
      sql`select address from signers where lower(address) = ${p.signerAddress.toLowerCase()}`,
    )
    const signerAddress = rows[0]?.address
    if (!signerAddress) throw new NotFoundError({ what: 'Signer' })
    const { jobId } = await requestNonceResync(tx, {
      signerAddress,
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
