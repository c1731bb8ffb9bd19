import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { redemptions } from '@/db/schema'

export type LockRedemptionsParameters = {
  ids: readonly string[]
  /** SELECT ... FOR UPDATE, in id order: every status change of a redemption is made under this lock */
  lock: boolean
}

/** A redemption as the send pipeline reads it. */
export type RedemptionRow = typeof redemptions.$inferSelect

/** The redemptions by id, locked when asked. */
export async function lockRedemptions(
  db: DbOrTx,
  { ids, lock }: LockRedemptionsParameters,
): Promise<Map<string, RedemptionRow>> {
  if (ids.length === 0) return new Map()
  const q = db
    .select()
    .from(redemptions)
    .where(inArray(redemptions.id, [...ids]))
    .orderBy(asc(redemptions.id))
  const rows = lock ? await q.for('update') : await q
  return new Map(rows.map((r) => [r.id, r]))
}
