import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintOrders } from '@/db/schema'

export type ReadMintOrderRowParameters = {
  orderId: string
  /** SELECT ... FOR UPDATE: the caller's transaction holds the order until it ends */
  lock?: boolean
}

export type MintOrder = typeof mintOrders.$inferSelect
export type ReadMintOrderRowReturnType = MintOrder | undefined

/** One order by id, optionally locked: every status change of an order is made under this lock. */
export async function readMintOrderRow(
  db: DbOrTx,
  { orderId, lock = false }: ReadMintOrderRowParameters,
): Promise<ReadMintOrderRowReturnType> {
  const q = db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
  const rows = lock ? await q.for('update') : await q
  return rows[0]
}
