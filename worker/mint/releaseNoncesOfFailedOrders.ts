import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { releaseAbandonedNonces } from '../db/releaseAbandonedNonces'
import type { SignerAccount, WorkerContext } from '../runtime/context'

export type ReleaseNoncesOfFailedOrdersParameters = {
  signer: Pick<SignerAccount, 'address'>
  jobId: bigint
  attempt: number
  actor: string
}

/**
 * The nonce health check's release of abandoned nonces: a nonce a send batch reserved is bound
 * to its order until the order signs it; only once the order has failed (or was
 * rejected) and no mint_send job of it can run again is the nonce released, with a
 * 'nonce_released' event on the order's timeline, and then filled like any released
 * nonce. Returns the nonces released.
 */
export async function releaseNoncesOfFailedOrders(
  ctx: WorkerContext,
  p: ReleaseNoncesOfFailedOrdersParameters,
): Promise<bigint[]> {
  const released = await ctx.db.transaction(async (tx) => {
    const rows = await releaseAbandonedNonces(tx, { signerAddress: p.signer.address })
    await recordJobEvents(
      tx,
      rows.map((r) => ({
        event: 'nonce_released',
        task: TASK.nonceHealth,
        orderId: r.orderId,
        jobId: p.jobId,
        attempt: p.attempt,
        actor: p.actor,
        detail: `nonce ${r.nonce} of ${p.signer.address} released: it was reserved, never signed, and its order failed; the nonce health check fills it`,
        data: { signer: p.signer.address, nonce: r.nonce.toString() },
      })),
    )
    return rows
  })
  for (const r of released)
    ctx.log.info({ nonce: r.nonce.toString(), orderId: r.orderId }, 'reserved nonce of a failed order released')
  return released.map((r) => r.nonce)
}
