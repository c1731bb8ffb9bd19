import { and, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { signerNonces } from '@/db/schema'
import { NONCE_HEALTH_JOB_KEY, TASK } from './jobKeys'
import { recordJobEvent } from './recordJobEvent'

export type ReleaseOrderNonceParameters = { orderId: string; actor: string }

export type ReleaseOrderNonceReturnType = { signerAddress: string; nonce: bigint } | null

/**
 * Hands back the nonce bound to an order that will not be minted (a cancel), inside the
 * caller's transaction: signer_nonces -> `released`, a 'nonce_released' event, and the
 * nonce health job is woken so it fills the nonce at once with a zero-value
 * self-transfer (invariant 3: a reserved nonce is never lost, later transactions of the
 * signer never wait behind a hole). If the order's mint was already signed, the fill
 * outbids it at the same nonce; should the mint be mined first anyway, the chain wins
 * and the order is confirmed (docs/decisions/007-nonces-in-postgres.md).
 * Returns the released nonce, or null when the order held none (or it is already mined).
 */
export async function releaseOrderNonce(db: DbOrTx, { orderId, actor }: ReleaseOrderNonceParameters): Promise<ReleaseOrderNonceReturnType> {
  const rows = await db
    .update(signerNonces)
    .set({ state: 'released', updatedAt: new Date() })
    .where(and(eq(signerNonces.orderId, orderId), inArray(signerNonces.state, ['reserved', 'signed'])))
    .returning({ signerAddress: signerNonces.signerAddress, nonce: signerNonces.nonce })
  const released = rows[0]
  if (!released) return null
  await recordJobEvent(db, {
    event: 'nonce_released',
    task: TASK.nonceHealth,
    orderId,
    actor,
    detail: `nonce ${released.nonce} of ${released.signerAddress} released; the nonce health check fills it`,
    data: { signer: released.signerAddress, nonce: released.nonce.toString() },
  })
  await db.execute(sql`
    select 1 from graphile_worker.reschedule_jobs(
      array(select id from graphile_worker._private_jobs where key = ${NONCE_HEALTH_JOB_KEY} and locked_at is null and attempts < max_attempts),
      run_at := now()
    )`)
  return released
}
