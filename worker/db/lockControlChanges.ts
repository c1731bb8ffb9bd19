import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { controlChanges } from '@/db/schema'

export type LockControlChangesParameters = {
  ids: readonly string[]
  /** SELECT ... FOR UPDATE, in id order: every status change of a change is made under this lock */
  lock: boolean
}

/** A control change as the send pipeline reads it. */
export type ControlChangeRow = typeof controlChanges.$inferSelect

/** The control changes by id, locked when asked. */
export async function lockControlChanges(
  db: DbOrTx,
  { ids, lock }: LockControlChangesParameters,
): Promise<Map<string, ControlChangeRow>> {
  if (ids.length === 0) return new Map()
  const q = db
    .select()
    .from(controlChanges)
    .where(inArray(controlChanges.id, [...ids]))
    .orderBy(asc(controlChanges.id))
  const rows = lock ? await q.for('update') : await q
  return new Map(rows.map((r) => [r.id, r]))
}
