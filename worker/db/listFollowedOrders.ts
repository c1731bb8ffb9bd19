import { and, asc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs, mintOrders } from '@/db/schema'
import { orderConfirmJobSql } from '@/lib/jobs/orderConfirmJobSql'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListFollowedOrdersParameters = { signerAddress: string }

/** A submitted order the signer's confirmer follows, with every transaction at its nonce that is the order's. */
export type FollowedOrder = {
  orderId: string
  nonce: bigint
  /** the mint and its replacements (and a gap fill of the order, if any), oldest first */
  txs: ChainTx[]
  /** the block a receipt last showed one of them mined in (chain_txs.mined_block), if any */
  minedBlock: bigint | null
}

/**
 * The confirmer's one read per pass: the signer's submitted orders (mint_orders'
 * (signer_address, nonce) index) that no order_confirm job of their own owns, live or
 * dead, with their transactions, lowest nonce first.
 */
export async function listFollowedOrders(
  db: DbOrTx,
  { signerAddress }: ListFollowedOrdersParameters,
): Promise<FollowedOrder[]> {
  const rows = await db
    .select({ tx: chainTxs, nonce: mintOrders.nonce })
    .from(mintOrders)
    .innerJoin(chainTxs, eq(chainTxs.orderId, mintOrders.id))
    .where(
      and(
        eq(mintOrders.signerAddress, signerAddress),
        eq(mintOrders.status, 'submitted'),
        sql`not ${orderConfirmJobSql(sql`${mintOrders.id}`, 'any')}`,
      ),
    )
    .orderBy(asc(mintOrders.nonce), asc(chainTxs.createdAt), asc(chainTxs.hash))
  const byOrder = new Map<string, FollowedOrder>()
  for (const { tx: row, nonce } of rows) {
    if (!row.orderId || nonce === null) continue
    const tx = toChainTx(row)
    const followed = byOrder.get(row.orderId) ?? { orderId: row.orderId, nonce, txs: [], minedBlock: null }
    followed.txs.push(tx)
    if (tx.minedBlock !== null) followed.minedBlock = tx.minedBlock
    byOrder.set(row.orderId, followed)
  }
  return [...byOrder.values()]
}
