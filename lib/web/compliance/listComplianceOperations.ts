import { desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type ComplianceStatus, complianceOperations } from '@/db/schema/compliance'
import type { ApiComplianceOperation } from './apiTypes'
import { toApiComplianceOperations } from './toApiComplianceOperations'

export type ListComplianceOperationsParameters = { status?: ComplianceStatus; limit?: number }

/** The compliance operations newest first (of one status when asked), up to `limit` (50), with their timelines. */
export async function listComplianceOperations(
  db: DbOrTx,
  p: ListComplianceOperationsParameters,
): Promise<ApiComplianceOperation[]> {
  const q = db.select().from(complianceOperations)
  const rows = await (p.status ? q.where(eq(complianceOperations.status, p.status)) : q)
    .orderBy(desc(complianceOperations.createdAt), desc(complianceOperations.id))
    .limit(p.limit ?? 50)
  return toApiComplianceOperations(db, rows)
}
