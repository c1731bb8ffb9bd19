import { COMPLIANCE_READERS, COMPLIANCE_REQUESTERS, COMPLIANCE_SIGNERS } from '@/lib/web/compliance/complianceRoles'
import {
  complianceApprovalSchema,
  complianceOperationSchema,
  complianceRequestedSchema,
  complianceStateSchema,
} from '@/lib/web/compliance/responseSchemas'
import {
  approveOperationBodySchema,
  complianceQuerySchema,
  freezeBodySchema,
  operationIdParamsSchema,
  pauseBodySchema,
  rejectOperationBodySchema,
} from '@/lib/web/compliance/schemas'
import type { ApiOperation } from '../ApiOperation'

const requested = {
  status: 202,
  description: 'Asked for: { operationId, status: "awaiting_approval" }, or for addresses { batchId, operations }',
  schema: complianceRequestedSchema,
}

/** The compliance API (docs/api.md "Compliance and the stop switch"): freeze, unfreeze, pause, unpause, signed. */
export const complianceOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/admin/compliance',
    summary: "The token's frozen accounts and pause state as the chain says, with the operations and their timelines",
    roles: COMPLIANCE_READERS,
    query: complianceQuerySchema,
    success: {
      status: 200,
      description: '{ chain: { tokenAddress, paused, frozen, required }, operations }',
      schema: complianceStateSchema,
    },
  },
  ...(['freeze', 'unfreeze'] as const).map(
    (action): ApiOperation => ({
      method: 'post',
      path: `/api/admin/compliance/${action}`,
      summary: `Asks for a ${action} of one address, or of 1 to 100 (a batch), with a reason (audited)`,
      roles: COMPLIANCE_REQUESTERS,
      body: freezeBodySchema,
      success: requested,
    }),
  ),
  ...(['pause', 'unpause'] as const).map(
    (action): ApiOperation => ({
      method: 'post',
      path: `/api/admin/compliance/${action}`,
      summary: `Asks to ${action} the token, with a reason (audited)`,
      roles: COMPLIANCE_REQUESTERS,
      body: pauseBodySchema,
      success: requested,
    }),
  ),
  {
    method: 'get',
    path: '/api/admin/compliance/operations/{operationId}/approval',
    summary:
      "The operation's FreezeIntent or PauseIntent as EIP-712 typed data, the approvals required, the signatures",
    roles: COMPLIANCE_READERS,
    params: operationIdParamsSchema,
    success: { status: 200, description: '{ typedData, required, signatures }', schema: complianceApprovalSchema },
  },
  {
    method: 'post',
    path: '/api/admin/compliance/operations/{operationId}/approve',
    summary:
      "An approver's signature of the operation's intent; at the rule it is pending, sent by the worker (audited)",
    roles: COMPLIANCE_SIGNERS,
    params: operationIdParamsSchema,
    body: approveOperationBodySchema,
    success: { status: 200, description: 'The operation', schema: complianceOperationSchema },
    errors: {
      403: 'self_approval: its requester signs',
      409: 'not_awaiting_approval or already_signed',
      422: 'invalid_signature',
    },
  },
  {
    method: 'post',
    path: '/api/admin/compliance/operations/{operationId}/reject',
    summary: 'A second person rejects the operation, with a reason: nothing of it is sent (audited)',
    roles: COMPLIANCE_SIGNERS,
    params: operationIdParamsSchema,
    body: rejectOperationBodySchema,
    success: { status: 200, description: 'The operation, rejected', schema: complianceOperationSchema },
    errors: { 403: 'self_approval: its requester rejects', 409: 'not_awaiting_approval' },
  },
]
