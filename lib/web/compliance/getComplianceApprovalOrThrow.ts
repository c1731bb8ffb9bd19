import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { complianceOperations } from '@/db/schema/compliance'
import { isUuid } from '@/lib/mint/isUuid'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiComplianceApproval } from './apiTypes'
import { complianceApiTypedData } from './complianceApiTypedData'
import { toApiComplianceOperations } from './toApiComplianceOperations'

/**
 * What an approver signs for a compliance operation: its FreezeIntent or PauseIntent rebuilt from its row as typed
 * data, GoldMinter's complianceApprovals, the signatures so far. Unknown id: 404.
 */
export async function getComplianceApprovalOrThrow(
  db: DbOrTx,
  p: { operationId: string; minter: MinterReader },
): Promise<ApiComplianceApproval> {
  if (!isUuid(p.operationId)) throw new NotFoundError({ what: 'Operation' })
  const rows = await db
    .select()
    .from(complianceOperations)
    .where(eq(complianceOperations.id, p.operationId.toLowerCase()))
  const [row] = rows
  const [api] = await toApiComplianceOperations(db, rows)
  if (!row || !api) throw new NotFoundError({ what: 'Operation' })
  return {
    typedData: complianceApiTypedData({ operation: row, minter: p.minter }),
    required: await p.minter.complianceApprovals(),
    signatures: api.signatures,
  }
}
