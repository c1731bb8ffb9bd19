import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { OperationKindName } from '@/db/schema'
import { chainTxs } from '@/db/schema'
import { operationColumns } from '../operations/operationColumns'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListTxsOfOperationsParameters = {
  /** the kind of every operation named (its reference column of chain_txs) */
  kind: OperationKindName
  ids: readonly string[]
}

/** The stored transactions of many operations of one kind in one read, oldest first per operation. */
export async function listTxsOfOperations(
  db: DbOrTx,
  { kind, ids }: ListTxsOfOperationsParameters,
): Promise<Map<string, ChainTx[]>> {
  const byId = new Map<string, ChainTx[]>()
  if (ids.length === 0) return byId
  const reference = operationColumns[kind].chainTxs
  const rows = await db
    .select({ id: reference, tx: chainTxs })
    .from(chainTxs)
    .where(inArray(reference, [...ids]))
    .orderBy(asc(chainTxs.createdAt), asc(chainTxs.hash))
  for (const { id, tx } of rows) {
    if (!id) continue
    const list = byId.get(id) ?? []
    list.push(toChainTx(tx))
    byId.set(id, list)
  }
  return byId
}
