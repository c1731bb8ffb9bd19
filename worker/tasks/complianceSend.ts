import { z } from 'zod'
import { complianceSendJobKey } from '@/lib/jobs/jobKeys'
import type { ComplianceSendPayload } from '@/lib/jobs/payloadTypes'
import type { ComplianceOperationRow } from '../db/lockComplianceOperations'
import { complianceKind } from '../operations/complianceKind'
import type { SendQueue } from '../operations/SendQueue'

/** compliance_send's payload as queued by the web when an approver's signature completes an operation */
export const complianceSendPayload = z.object({ operationId: z.guid() }) satisfies z.ZodType<ComplianceSendPayload>

/**
 * compliance_send: one signed freeze, unfreeze, pause or unpause through the one send path (the compliance kind,
 * docs/decisions/056-compliance-operations.md), its approvers' signatures verified again.
 * Run by the one send task (worker/tasks/sendTask.ts) and batched like every kind.
 */
export const complianceSendQueue: SendQueue<ComplianceOperationRow, ComplianceSendPayload> = {
  kind: complianceKind,
  payload: complianceSendPayload,
  idOf: (p) => p.operationId,
  payloadOf: (operationId) => ({ operationId }),
  jobKeyOf: complianceSendJobKey,
}
