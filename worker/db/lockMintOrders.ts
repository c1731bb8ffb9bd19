import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintOrders } from '@/db/schema'
import type { MintOrder } from './readMintOrderRow'

export type LockMintOrdersParameters = {
  orderIds: readonly string[]
  /** SELECT ... FOR UPDATE, in id order (two batches sharing orders never deadlock) */
  lock: boolean
}

/** The orders of a send batch by id, locked when asked: every status change of an order is made under this lock. */
export async function lockMintOrders(
  db: DbOrTx,
  { orderIds, lock }: LockMintOrdersParameters,
): Promise<Map<string, MintOrder>> {
  if (orderIds.length === 0) return new Map()
  const q = db
    .select()
    .from(mintOrders)
    .where(inArray(mintOrders.id, [...orderIds]))
    .orderBy(asc(mintOrders.id))
  const rows = lock ? await q.for('update') : await q
  return new Map(rows.map((r) => [r.id, r]))
}
