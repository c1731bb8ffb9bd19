import { randomUUID } from 'node:crypto'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import { type ComplianceAction, complianceOperations } from '@/db/schema/compliance'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { recordComplianceEvent } from '@/lib/notifications/recordComplianceEvent'
import type { ApiComplianceAccepted, ApiComplianceBatchAccepted } from './apiTypes'

/** How long approvers have to sign a compliance operation (GoldMinter refuses its intent after). */
export const COMPLIANCE_DEADLINE_MS = 7 * 24 * 60 * 60 * 1000

export type RequestComplianceOperationsParameters = {
  action: ComplianceAction
  /**
   * freeze, unfreeze: `address` (one operation) or `addresses` (one per address, a batch), lower-case;
   * pause, unpause: neither
   */
  target: { address: string } | { addresses: readonly string[] } | null
  reason: string
  requester: AdminActor
}

export type RequestComplianceOperationsReturnType = ApiComplianceAccepted | ApiComplianceBatchAccepted

/**
 * An admin asks for a freeze, unfreeze, pause or unpause, with a reason (docs/decisions/056-compliance-operations.md),
 * in ONE transaction: a compliance_operations row awaiting approval per account (a batch of addresses shares a
 * batch id), its intent's deadline 7 days ahead; per operation an 'approval_requested' timeline event, a
 * compliance.awaiting_approval notification event and a `compliance.request` audit row. No job: an approver's
 * signature completes it (approveComplianceOperation). Returns `{ operationId, status }`, or for `addresses`
 * `{ batchId, operations }`.
 */
export async function requestComplianceOperations(
  db: Db,
  p: RequestComplianceOperationsParameters,
): Promise<RequestComplianceOperationsReturnType> {
  const batch = p.target !== null && 'addresses' in p.target
  const accounts: (string | null)[] =
    p.target === null ? [null] : 'addresses' in p.target ? [...p.target.addresses] : [p.target.address]
  const batchId = batch ? randomUUID() : null
  const intentDeadline = new Date(Math.floor((Date.now() + COMPLIANCE_DEADLINE_MS) / 1000) * 1000)
  const rows = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(complianceOperations)
      .values(
        accounts.map((account) => ({
          action: p.action,
          account,
          reason: p.reason,
          batchId,
          requestedBy: p.requester.id,
          intentDeadline,
        })),
      )
      .returning({ id: complianceOperations.id, account: complianceOperations.account })
    for (const row of inserted) {
      const what = row.account ? `${p.action} ${getAddress(row.account)}` : p.action
      await recordJobEvent(tx, {
        event: 'approval_requested',
        task: TASK.complianceSend,
        orderId: row.id,
        actor: p.requester.email,
        detail: `${what} asked for by ${p.requester.email}: ${p.reason}`,
      })
      await recordComplianceEvent(tx, {
        type: 'compliance.awaiting_approval',
        operationId: row.id,
        status: 'awaiting_approval',
        from: ['awaiting_approval'],
      })
      await recordAudit(tx, {
        actor: p.requester,
        action: 'compliance.request',
        targetType: 'compliance_operation',
        targetId: row.id,
        detail: { action: p.action, account: row.account, reason: p.reason, batchId },
      })
    }
    return inserted
  })
  if (batchId === null) {
    const [only] = rows
    if (!only) throw new Error('no compliance operation was written')
    return { operationId: only.id, status: 'awaiting_approval' }
  }
  return {
    batchId,
    operations: rows.map((r) => ({
      operationId: r.id,
      account: getAddress(r.account ?? ''),
      status: 'awaiting_approval' as const,
    })),
  }
}
