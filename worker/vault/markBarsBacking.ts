import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { holdOrderBars } from '@/lib/vault/holdOrderBars'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'

export type MarkBarsBackingParameters = { orderIds: readonly string[] }

export type MarkBarsBackingReturnType = {
  /** bars now backing the orders (missing ones stay missing, still held by their order) */
  backing: number
  /** bars of an order that another order holds now (the order was failed or cancelled meanwhile) */
  lost: { orderId: string; serial: string; refiner: string; heldBy: string }[]
}

/**
 * The orders are confirmed: their reserved bars now back their tokens, in the caller's
 * transaction (the one that confirms them; a confirmer pass confirms a block's orders at
 * once). When the chain confirms an order that had been failed or cancelled (its bars
 * freed), the chain wins: its bars that are still free are taken back (backing, or
 * missing when not listed); any that another order holds meanwhile are returned in
 * `lost` for the caller to report.
 */
export async function markBarsBacking(
  tx: Tx,
  { orderIds }: MarkBarsBackingParameters,
): Promise<MarkBarsBackingReturnType> {
  if (orderIds.length === 0) return { backing: 0, lost: [] }
  const lost = await holdOrderBars(tx, { orderIds })
  const rows = await tx.execute<{ id: string }>(sql`
    update vault_bars set status = 'backing', updated_at = now()
    where order_id = any(${uuidArraySql(orderIds)}) and status = 'reserved'
    returning id`)
  return { backing: rows.length, lost }
}
