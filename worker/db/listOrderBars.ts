import type { Tx } from '@/db/client'
import type { BarStatus } from '@/db/schema/vault'
import { listBarsOfOrders } from './listBarsOfOrders'

export type ListOrderBarsParameters = { orderId: string }

/** One bar of an order as the inventory has it now, with its vault's latest list. */
export type OrderBar = {
  serial: string
  refiner: string
  vault: string
  status: BarStatus
  /** the order holding the bar now (null when free) */
  holderId: string | null
  /** fine weight in milli-oz (fine_oz has 3 decimals) */
  fineMilliOz: bigint
  /** whether the bar is one of the order's (mint_order_bars), not merely held by it */
  ofOrder: boolean
  /** the as_of of the bar's vault's latest list (null: the vault has none) */
  latestListAsOf: Date | null
}

/**
 * The order's bars (mint_order_bars) and any other bar that says it is held by the
 * order (vault_bars.order_id), re-read from the inventory for the check before signing.
 * Rows are locked (FOR SHARE) in the caller's transaction, so no intake or release
 * moves them until the signature is stored.
 */
export async function listOrderBars(tx: Tx, { orderId }: ListOrderBarsParameters): Promise<OrderBar[]> {
  return (await listBarsOfOrders(tx, { orderIds: [orderId] })).get(orderId) ?? []
}
