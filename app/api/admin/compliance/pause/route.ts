// POST /api/admin/compliance/pause { reason } - asks to pause the token; 202 { operationId, status:
// "awaiting_approval" }; an approver signs it, then the worker sends it; audited (admin)
import { COMPLIANCE_REQUESTERS } from '@/lib/web/compliance/complianceRoles'
import { requestComplianceOperations } from '@/lib/web/compliance/requestComplianceOperations'
import { pauseBodySchema } from '@/lib/web/compliance/schemas'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const POST = route({
  roles: COMPLIANCE_REQUESTERS,
  body: pauseBodySchema,
  handler: async ({ user, body }) =>
    json(
      await requestComplianceOperations(getWebDb().db, {
        action: 'pause',
        target: null,
        reason: body.reason,
        requester: { id: user.id, email: user.email },
      }),
      202,
    ),
})
