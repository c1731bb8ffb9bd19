import { route } from '@/lib/web/http/route'
import { getRedemptionApprovalOrThrow } from '@/lib/web/redemptions/getRedemptionApprovalOrThrow'
import { REDEMPTION_SIGNER_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import { redemptionIdParamsSchema } from '@/lib/web/redemptions/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

// GET /api/gold/redemptions/{redemptionId}/approval - its RedemptionIntent as EIP-712 typed data, the approvals
// GoldMinter requires and the signatures so far (approver, admin)
export const GET = route({
  roles: REDEMPTION_SIGNER_ROLES,
  params: redemptionIdParamsSchema,
  handler: ({ params }) =>
    getRedemptionApprovalOrThrow(getWebDb().db, { redemptionId: params.redemptionId, minter: getMinterReader() }),
})
