import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { holdOrderBars } from './holdOrderBars'

export type MarkBarsReservedParameters = { orderId: string }

export type MarkBarsReservedReturnType = {
  /** bars that went from backing back to reserved */
  reserved: number
  /** bars of the order that another order holds now */
  lost: { orderId: string; serial: string; refiner: string; heldBy: string }[]
}

/**
 * The order is in flight again, in the caller's transaction: a confirmed order whose
 * block was reorged away (back to submitted), or a failed or cancelled one that runs
 * again (an admin's retry, or its mint seen on chain after all). Its backing bars are
 * reserved again; its bars freed meanwhile and still free are taken back (reserved, or
 * missing when no longer listed); any that another order holds now are returned in `lost`.
 */
export async function markBarsReserved(
  tx: Tx,
  { orderId }: MarkBarsReservedParameters,
): Promise<MarkBarsReservedReturnType> {
  const lost = await holdOrderBars(tx, { orderIds: [orderId] })
  const rows = await tx.execute<{ id: string }>(sql`
    update vault_bars set status = 'reserved', updated_at = now()
    where order_id = ${orderId}::uuid and status = 'backing'
    returning id`)
  return { reserved: rows.length, lost }
}
