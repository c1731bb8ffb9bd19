import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type HoldOrderBarsParameters = { orderId: string }

/** Bars of the order that another order holds. */
export type HoldOrderBarsReturnType = { serial: string; refiner: string; heldBy: string }[]

/**
 * Makes the order hold every bar of its history (mint_order_bars) again, where it can:
 * a free bar is taken back (available -> reserved; withdrawn -> missing, since it is no
 * longer listed), in bar-id order under row locks. Bars it already holds are left as
 * they are. Returns the bars that another order holds (they cannot be taken).
 */
export async function holdOrderBars(tx: Tx, { orderId }: HoldOrderBarsParameters): Promise<HoldOrderBarsReturnType> {
  const bars = await tx.execute<{ id: string; serial: string; refiner: string; status: string; order_id: string | null }>(sql`
    select b.id::text as id, b.serial, b.refiner, b.status::text as status, b.order_id::text as order_id
    from mint_order_bars mb join vault_bars b on b.id = mb.bar_id
    where mb.order_id = ${orderId}::uuid
    order by b.id
    for update of b`)
  const lost: HoldOrderBarsReturnType = []
  for (const bar of bars) {
    if (bar.order_id === orderId) continue
    if (bar.order_id !== null) {
      lost.push({ serial: bar.serial, refiner: bar.refiner, heldBy: bar.order_id })
      continue
    }
    await tx.execute(sql`
      update vault_bars set status = (case when status in ('withdrawn', 'missing') then 'missing' else 'reserved' end)::bar_status,
        order_id = ${orderId}::uuid, updated_at = now()
      where id = ${bar.id}::uuid and order_id is null`)
  }
  return lost
}
