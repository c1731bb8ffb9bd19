import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListTxsOfOrdersParameters = { orderIds: readonly string[] }

/** The stored transactions of many orders in one read (listOrderTxs for a batch), oldest first per order. */
export async function listTxsOfOrders(
  db: DbOrTx,
  { orderIds }: ListTxsOfOrdersParameters,
): Promise<Map<string, ChainTx[]>> {
  const byOrder = new Map<string, ChainTx[]>()
  if (orderIds.length === 0) return byOrder
  const rows = await db
    .select()
    .from(chainTxs)
    .where(inArray(chainTxs.orderId, [...orderIds]))
    .orderBy(asc(chainTxs.createdAt), asc(chainTxs.hash))
  for (const row of rows) {
    if (!row.orderId) continue
    const list = byOrder.get(row.orderId) ?? []
    list.push(toChainTx(row))
    byOrder.set(row.orderId, list)
  }
  return byOrder
}
