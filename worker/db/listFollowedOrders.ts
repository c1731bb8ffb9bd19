import { asc, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs, type OperationKindName, operationKind } from '@/db/schema'
import { orderConfirmJobSql } from '@/lib/jobs/orderConfirmJobSql'
import { operationColumns } from '../operations/operationColumns'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListFollowedOrdersParameters = { signerAddress: string }

/**
 * A submitted operation the signer's confirmer follows, with every transaction at its nonce that is the
 * operation's. `orderId` is the operation's id (a mint's order id), as in the timeline.
 */
export type FollowedOrder = {
  operation: OperationKindName
  orderId: string
  nonce: bigint
  /** the call and its replacements (and a gap fill of the operation, if any), oldest first */
  txs: ChainTx[]
  /** the block a receipt last showed one of them mined in (chain_txs.mined_block), if any */
  minedBlock: bigint | null
}

/**
 * The confirmer's one read per pass and kind: the signer's submitted operations (each kind's
 * (signer_address, nonce) index) that no order_confirm job of their own owns, live or dead, with their
 * transactions; lowest nonce first over every kind.
 */
export async function listFollowedOrders(
  db: DbOrTx,
  { signerAddress }: ListFollowedOrdersParameters,
): Promise<FollowedOrder[]> {
  const perKind = await Promise.all(
    operationKind.enumValues.map((operation) => listFollowedOfKind(db, { operation, signerAddress })),
  )
  return perKind.flat().sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0))
}

async function listFollowedOfKind(
  db: DbOrTx,
  p: { operation: OperationKindName; signerAddress: string },
): Promise<FollowedOrder[]> {
  const { table, chainTxs: reference } = operationColumns[p.operation]
  const rows = await db
    .select({ tx: chainTxs, id: reference })
    .from(chainTxs)
    .where(
      sql`${reference} in (
        select o.id from ${sql.identifier(table)} o
        where o.signer_address = ${p.signerAddress} and o.status = 'submitted'
          and not ${orderConfirmJobSql(sql`o.id`, 'any')})`,
    )
    .orderBy(asc(chainTxs.nonce), asc(chainTxs.createdAt), asc(chainTxs.hash))
  const byId = new Map<string, FollowedOrder>()
  for (const { tx: row, id } of rows) {
    if (!id) continue
    const tx = toChainTx(row)
    const followed = byId.get(id) ?? { operation: p.operation, orderId: id, nonce: tx.nonce, txs: [], minedBlock: null }
    followed.txs.push(tx)
    if (tx.minedBlock !== null) followed.minedBlock = tx.minedBlock
    byId.set(id, followed)
  }
  return [...byId.values()]
}
