import { rejectMintOrderSchema } from '@/lib/web/approvals/rejectMintOrderSchema'
import { route } from '@/lib/web/http/route'
import { REDEMPTION_SIGNER_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import { rejectRedemption } from '@/lib/web/redemptions/rejectRedemption'
import { redemptionIdParamsSchema } from '@/lib/web/redemptions/schemas'
import { getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/redemptions/{redemptionId}/reject { reason } - a second person rejects: its deposit and bars
// are free again (approver, admin; never the requester)
export const POST = route({
  roles: REDEMPTION_SIGNER_ROLES,
  params: redemptionIdParamsSchema,
  body: rejectMintOrderSchema,
  handler: ({ user, params, body }) =>
    rejectRedemption(getWebDb().db, { redemptionId: params.redemptionId, user, reason: body.reason }),
})
