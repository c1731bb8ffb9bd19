import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { complianceOperations } from '@/db/schema/compliance'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiComplianceOperation } from './apiTypes'
import { toApiComplianceOperations } from './toApiComplianceOperations'

/** One compliance operation with its signatures and timeline; an unknown id: 404. */
export async function getComplianceOperationOrThrow(
  db: DbOrTx,
  { operationId }: { operationId: string },
): Promise<ApiComplianceOperation> {
  if (!isUuid(operationId)) throw new NotFoundError({ what: 'Operation' })
  const rows = await db
    .select()
    .from(complianceOperations)
    .where(eq(complianceOperations.id, operationId.toLowerCase()))
  const [api] = await toApiComplianceOperations(db, rows)
  if (!api) throw new NotFoundError({ what: 'Operation' })
  return api
}
