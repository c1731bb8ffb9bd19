// POST /api/admin/compliance/operations/{operationId}/approve { signature } - an approver's EIP-712 signature of
// the operation's intent; at GoldMinter's complianceApprovals: pending + its compliance_send job (never the
// requester; approver, admin)

import { approveComplianceOperation } from '@/lib/web/compliance/approveComplianceOperation'
import { COMPLIANCE_SIGNERS } from '@/lib/web/compliance/complianceRoles'
import { approveOperationBodySchema, operationIdParamsSchema } from '@/lib/web/compliance/schemas'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const POST = route({
  roles: COMPLIANCE_SIGNERS,
  params: operationIdParamsSchema,
  body: approveOperationBodySchema,
  handler: ({ user, params, body }) =>
    approveComplianceOperation(getWebDb().db, {
      operationId: params.operationId,
      user: { id: user.id, email: user.email },
      signature: body.signature,
      minter: getMinterReader(),
      maxAttempts: getConfig('web').worker.maxAttempts,
    }),
})
