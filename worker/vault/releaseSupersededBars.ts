import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { releaseBars } from '@/lib/vault/releaseBars'

export type ReleaseSupersededBarsParameters = { jobId: bigint; actor: string }

export type ReleaseSupersededBarsReturnType = { orderId: string; released: number }[]

/**
 * The nonce health check's pass over the bars that failed and cancelled orders still hold
 * (lib/vault/releaseBars.ts held them while a transaction signed for the order could be
 * mined): each such order whose nonces are now all used by a mined transaction (a gap fill,
 * a replacement, or its own reverted mint) frees them, with a 'bars_released' event, one
 * transaction per order. A mint of the order mined after all is no concern here: its
 * confirmation makes the order confirmed and its bars backing (nonceHealth's
 * settleUsedNonce).
 */
export async function releaseSupersededBars(
  db: Db,
  p: ReleaseSupersededBarsParameters,
): Promise<ReleaseSupersededBarsReturnType> {
  const candidates = await db.execute<{ order_id: string }>(sql`
    select distinct b.order_id::text as order_id from vault_bars b join mint_orders o on o.id = b.order_id
    where b.status in ('reserved', 'missing') and o.status in ('failed', 'cancelled', 'rejected')
    limit 500`)
  const out: ReleaseSupersededBarsReturnType = []
  for (const { order_id: orderId } of candidates) {
    const released = await db.transaction(async (tx) => {
      const locked = await tx.execute<{ status: string }>(
        sql`select status::text as status from mint_orders where id = ${orderId}::uuid for update`,
      )
      if (!['failed', 'cancelled', 'rejected'].includes(locked[0]?.status ?? '')) return 0
      const result = await releaseBars(tx, { orderId })
      if (result.released > 0)
        await recordJobEvent(tx, {
          event: 'bars_released',
          task: TASK.nonceHealth,
          orderId,
          jobId: p.jobId,
          actor: p.actor,
          detail: `${result.released} bar${result.released === 1 ? '' : 's'} freed: no transaction signed for this order can be mined any more`,
        })
      return result.released
    })
    if (released > 0) out.push({ orderId, released })
  }
  return out
}
