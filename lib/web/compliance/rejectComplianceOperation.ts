import { eq } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { complianceOperations } from '@/db/schema/compliance'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import type { ApiComplianceOperation } from './apiTypes'
import { getComplianceOperationOrThrow } from './getComplianceOperationOrThrow'
import { lockOperationAwaitingApproval } from './lockOperationAwaitingApproval'

export type RejectComplianceOperationParameters = {
  operationId: string
  /** the approver or admin rejecting (never the requester) */
  user: AdminActor
  reason: string
}

/**
 * An approver or admin other than its requester rejects a compliance operation, with a reason: nothing of it is
 * ever sent. The operation locked (lockOperationAwaitingApproval: 404, 403 self_approval, 409
 * not_awaiting_approval), marked rejected with who, when and why, a 'rejected' timeline event and its
 * `compliance.reject` audit row, in one transaction.
 */
export async function rejectComplianceOperation(
  db: Db,
  p: RejectComplianceOperationParameters,
): Promise<ApiComplianceOperation> {
  const operationId = await db.transaction(async (tx) => {
    const row = await lockOperationAwaitingApproval(tx, { operationId: p.operationId, user: p.user })
    const now = new Date()
    await tx
      .update(complianceOperations)
      .set({
        status: 'rejected',
        rejectedBy: p.user.id,
        rejectedAt: now,
        rejectionReason: p.reason,
        updatedAt: now,
      })
      .where(eq(complianceOperations.id, row.id))
    await recordJobEvent(tx, {
      event: 'rejected',
      task: TASK.complianceSend,
      orderId: row.id,
      actor: p.user.email,
      detail: `rejected by ${p.user.email}: ${p.reason}`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'compliance.reject',
      targetType: 'compliance_operation',
      targetId: row.id,
      detail: { action: row.action, account: row.account, reason: p.reason },
    })
    return row.id
  })
  return getComplianceOperationOrThrow(db, { operationId })
}
