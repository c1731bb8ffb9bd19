import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { holdOrderBars } from './holdOrderBars'

export type MarkBarsBackingParameters = { orderId: string }

export type MarkBarsBackingReturnType = {
  /** bars now backing the order (missing ones stay missing, still held by it) */
  backing: number
  /** bars of the order that another order holds now (the order was failed or cancelled meanwhile) */
  lost: { serial: string; refiner: string; heldBy: string }[]
}

/**
 * The order is confirmed: its reserved bars now back its tokens, in the caller's
 * transaction (the one that confirms the order). When the chain confirms an order that
 * had been failed or cancelled (its bars freed), the chain wins: its bars that are still
 * free are taken back (backing, or missing when no longer listed); any that another
 * order holds meanwhile are returned in `lost` for the caller to report.
 */
export async function markBarsBacking(tx: Tx, { orderId }: MarkBarsBackingParameters): Promise<MarkBarsBackingReturnType> {
  const lost = await holdOrderBars(tx, { orderId })
  const rows = await tx.execute<{ id: string }>(sql`
    update vault_bars set status = 'backing', updated_at = now()
    where order_id = ${orderId}::uuid and status = 'reserved'
    returning id`)
  return { backing: rows.length, lost }
}
