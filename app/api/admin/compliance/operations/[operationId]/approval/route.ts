// GET /api/admin/compliance/operations/{operationId}/approval - the operation's FreezeIntent or PauseIntent typed
// data to sign, how many approvers it needs, and the signatures so far (admin, auditor, approver)
import { COMPLIANCE_READERS } from '@/lib/web/compliance/complianceRoles'
import { getComplianceApprovalOrThrow } from '@/lib/web/compliance/getComplianceApprovalOrThrow'
import { operationIdParamsSchema } from '@/lib/web/compliance/schemas'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const GET = route({
  roles: COMPLIANCE_READERS,
  params: operationIdParamsSchema,
  handler: ({ params }) =>
    getComplianceApprovalOrThrow(getWebDb().db, { operationId: params.operationId, minter: getMinterReader() }),
})
