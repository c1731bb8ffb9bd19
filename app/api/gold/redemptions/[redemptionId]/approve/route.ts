import { approveMintOrderSchema } from '@/lib/web/approvals/approveMintOrderSchema'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { approveRedemption } from '@/lib/web/redemptions/approveRedemption'
import { REDEMPTION_SIGNER_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import { redemptionIdParamsSchema } from '@/lib/web/redemptions/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/redemptions/{redemptionId}/approve { signature } - an approver's EIP-712 signature of the
// redemption's RedemptionIntent; once enough approvers signed: pending + its redemption_send job (never the
// requester)
export const POST = route({
  roles: REDEMPTION_SIGNER_ROLES,
  params: redemptionIdParamsSchema,
  body: approveMintOrderSchema,
  handler: ({ user, params, body }) =>
    approveRedemption(getWebDb().db, {
      redemptionId: params.redemptionId,
      user,
      signature: body.signature,
      minter: getMinterReader(),
      maxAttempts: getConfig('web').worker.maxAttempts,
    }),
})
