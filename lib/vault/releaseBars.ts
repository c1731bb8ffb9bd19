import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type ReleaseBarsParameters = { orderId: string }

export type ReleaseBarsReturnType = { released: number }

/**
 * An order that becomes failed, cancelled or rejected frees its bars, in the caller's
 * transaction (the one that changes the order's status): reserved -> available, missing
 * (absent from the latest list) -> withdrawn, order_id null. A bar never seen on a bar
 * list (registered before lists existed) becomes withdrawn, not available. Bars that
 * back a confirmed order are never freed. The order keeps its bars in mint_order_bars.
 */
export async function releaseBars(tx: Tx, { orderId }: ReleaseBarsParameters): Promise<ReleaseBarsReturnType> {
  const rows = await tx.execute<{ id: string }>(sql`
    update vault_bars set
      status = (case when status = 'missing' or last_list_id is null then 'withdrawn' else 'available' end)::bar_status,
      order_id = null,
      updated_at = now()
    where order_id = ${orderId}::uuid and status in ('reserved', 'missing')
    returning id`)
  return { released: rows.length }
}
