import { asc, inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { complianceOperations } from '@/db/schema'

export type LockComplianceOperationsParameters = {
  ids: readonly string[]
  /** SELECT ... FOR UPDATE, in id order: every status change of an operation is made under this lock */
  lock: boolean
}

/** A compliance operation as the send pipeline reads it. */
export type ComplianceOperationRow = typeof complianceOperations.$inferSelect

/** The compliance operations by id, locked when asked. */
export async function lockComplianceOperations(
  db: DbOrTx,
  { ids, lock }: LockComplianceOperationsParameters,
): Promise<Map<string, ComplianceOperationRow>> {
  if (ids.length === 0) return new Map()
  const q = db
    .select()
    .from(complianceOperations)
    .where(inArray(complianceOperations.id, [...ids]))
    .orderBy(asc(complianceOperations.id))
  const rows = lock ? await q.for('update') : await q
  return new Map(rows.map((r) => [r.id, r]))
}
