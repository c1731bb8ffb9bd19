import { asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListOrderTxsParameters = { orderId: string }

export type { ChainTx }
export type ListOrderTxsReturnType = ChainTx[]

/**
 * Every signed transaction of an order (the mint and its replacements, and a gap fill
 * that took its nonce after a cancel), oldest first. They all share one signer and nonce.
 */
export async function listOrderTxs(db: DbOrTx, { orderId }: ListOrderTxsParameters): Promise<ListOrderTxsReturnType> {
  const rows = await db
    .select()
    .from(chainTxs)
    .where(eq(chainTxs.orderId, orderId))
    .orderBy(asc(chainTxs.createdAt), asc(chainTxs.hash))
  return rows.map(toChainTx)
}
