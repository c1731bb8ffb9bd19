// POST /api/admin/compliance/operations/{operationId}/reject { reason } - a second person rejects the operation,
// with a reason: nothing of it is sent (never the requester; approver, admin)
import { COMPLIANCE_SIGNERS } from '@/lib/web/compliance/complianceRoles'
import { rejectComplianceOperation } from '@/lib/web/compliance/rejectComplianceOperation'
import { operationIdParamsSchema, rejectOperationBodySchema } from '@/lib/web/compliance/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const POST = route({
  roles: COMPLIANCE_SIGNERS,
  params: operationIdParamsSchema,
  body: rejectOperationBodySchema,
  handler: ({ user, params, body }) =>
    rejectComplianceOperation(getWebDb().db, {
      operationId: params.operationId,
      user: { id: user.id, email: user.email },
      reason: body.reason,
    }),
})
