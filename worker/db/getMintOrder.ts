import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintOrders } from '@/db/schema'

export type GetMintOrderParameters = {
  orderId: string
  /** SELECT ... FOR UPDATE: the caller's transaction holds the order until it ends */
  lock?: boolean
}

export type MintOrder = typeof mintOrders.$inferSelect
export type GetMintOrderReturnType = MintOrder | undefined

/** One order by id, optionally locked: every status change of an order is made under this lock. */
export async function getMintOrder(
  db: DbOrTx,
  { orderId, lock = false }: GetMintOrderParameters,
): Promise<GetMintOrderReturnType> {
  const q = db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
  const rows = lock ? await q.for('update') : await q
  return rows[0]
}
