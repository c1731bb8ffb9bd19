// POST /api/admin/compliance/unfreeze { address | addresses: [...], reason } - asks for an unfreeze of one
// account, or of 1 to 100 (one operation each, sharing a batch id); 202 { operationId, status: "awaiting_approval" }
// or { batchId, operations }; an approver signs it, then the worker sends it; audited (admin)
import { COMPLIANCE_REQUESTERS } from '@/lib/web/compliance/complianceRoles'
import { requestComplianceOperations } from '@/lib/web/compliance/requestComplianceOperations'
import { freezeBodySchema } from '@/lib/web/compliance/schemas'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const POST = route({
  roles: COMPLIANCE_REQUESTERS,
  body: freezeBodySchema,
  handler: async ({ user, body }) =>
    json(
      await requestComplianceOperations(getWebDb().db, {
        action: 'unfreeze',
        target: body.addresses ? { addresses: body.addresses } : { address: body.address ?? '' },
        reason: body.reason,
        requester: { id: user.id, email: user.email },
      }),
      202,
    ),
})
