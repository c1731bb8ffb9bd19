import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { readsEveryOrder } from '@/lib/web/mint/readsEveryOrder'
import { getRedemptionOrThrow } from '@/lib/web/redemptions/getRedemptionOrThrow'
import { redemptionIdParamsSchema } from '@/lib/web/redemptions/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

// GET /api/gold/redemptions/{redemptionId} - one redemption with its bars, signatures and timeline (its
// requester, approver, admin, auditor)
export const GET = route({
  roles: ORDER_READERS,
  params: redemptionIdParamsSchema,
  handler: ({ user, params }) =>
    getRedemptionOrThrow(getWebDb().db, {
      redemptionId: params.redemptionId,
      requestedBy: readsEveryOrder(user.role) ? undefined : user.id,
    }),
})
