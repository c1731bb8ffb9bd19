import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { uuidArraySql } from './uuidArraySql'

export type HoldOrderBarsParameters = { orderIds: readonly string[] }

/** Bars of an order that another order holds. */
export type HoldOrderBarsReturnType = { orderId: string; serial: string; refiner: string; heldBy: string }[]

/**
 * Makes each order hold every bar of its history (mint_order_bars) again, where it can:
 * a free bar is taken back (available -> reserved; withdrawn -> missing, since it is no
 * longer listed), in bar-id order under row locks. Bars an order already holds are left
 * as they are (the common case: one statement reads and locks them all). Returns the bars
 * that another order holds (they cannot be taken).
 */
export async function holdOrderBars(tx: Tx, { orderIds }: HoldOrderBarsParameters): Promise<HoldOrderBarsReturnType> {
  if (orderIds.length === 0) return []
  const bars = await tx.execute<{
    id: string
    serial: string
    refiner: string
    of_order: string
    order_id: string | null
  }>(sql`
    select b.id::text as id, b.serial, b.refiner, mb.order_id::text as of_order, b.order_id::text as order_id
    from mint_order_bars mb join vault_bars b on b.id = mb.bar_id
    where mb.order_id = any(${uuidArraySql(orderIds)})
    order by b.id
    for update of b`)
  const lost: HoldOrderBarsReturnType = []
  for (const bar of bars) {
    if (bar.order_id === bar.of_order) continue
    if (bar.order_id !== null) {
      lost.push({ orderId: bar.of_order, serial: bar.serial, refiner: bar.refiner, heldBy: bar.order_id })
      continue
    }
    await tx.execute(sql`
      update vault_bars set status = (case when status in ('withdrawn', 'missing') then 'missing' else 'reserved' end)::bar_status,
        order_id = ${bar.of_order}::uuid, updated_at = now()
      where id = ${bar.id}::uuid and order_id is null`)
  }
  return lost
}
