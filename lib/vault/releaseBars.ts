import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'

export type ReleaseBarsParameters = {
  orderId: string
  /** when bars are held: the 'bars_held' event on the order's timeline, by this task and actor */
  timeline?: { task: string; actor?: string | null }
}

export type ReleaseBarsReturnType = {
  released: number
  /**
   * bars left held because a transaction signed for the order can still be mined: none
   * at its nonce is mined yet (the worker's nonce health frees them once one is)
   */
  held: number
}

/**
 * An order that becomes failed, cancelled or rejected frees its bars, in the caller's
 * transaction (the one that changes the order's status): reserved -> available, missing
 * (absent from the latest list) -> withdrawn, order_id null. A bar never seen on a bar
 * list (registered before lists existed) becomes withdrawn, not available. Bars that
 * back a confirmed order are never freed. The order keeps its bars in mint_order_bars.
 *
 * While a transaction signed for the order can still be mined (a stored transaction of
 * it whose nonce no mined transaction has used yet), its bars stay held by it
 * (docs/architecture.md invariant 4): should that mint land after all, its tokens are
 * backed by these bars and by no other order's. worker/vault/releaseSupersededBars.ts
 * frees them once a transaction at each such nonce is mined.
 */
export async function releaseBars(
  tx: Tx,
  { orderId, timeline }: ReleaseBarsParameters,
): Promise<ReleaseBarsReturnType> {
  const [row] = await tx.execute<{ released: number; held: number }>(sql`
    with live_tx as (
      select 1 from chain_txs c
      where c.order_id = ${orderId}::uuid
        and not exists (
          select 1 from chain_txs m
          where m.signer_address = c.signer_address and m.nonce = c.nonce and m.mined_block is not null)
      limit 1
    ), freed as (
      update vault_bars set
        status = (case when status = 'missing' or last_list_id is null then 'withdrawn' else 'available' end)::bar_status,
        order_id = null,
        updated_at = now()
      where order_id = ${orderId}::uuid and status in ('reserved', 'missing') and not exists (select 1 from live_tx)
      returning id
    )
    select (select count(*) from freed)::int as released,
      (select count(*) from vault_bars b
        where b.order_id = ${orderId}::uuid and b.status in ('reserved', 'missing')
          and exists (select 1 from live_tx))::int as held`)
  const result = { released: row?.released ?? 0, held: row?.held ?? 0 }
  if (timeline && result.held > 0)
    await recordJobEvent(tx, {
      event: 'bars_held',
      task: timeline.task,
      orderId,
      actor: timeline.actor ?? null,
      detail: `${result.held} bar${result.held === 1 ? '' : 's'} kept: a transaction signed for this order can still be mined; they are freed once a transaction at its nonce is mined`,
    })
  return result
}
