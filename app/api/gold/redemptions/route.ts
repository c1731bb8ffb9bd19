import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { readsEveryOrder } from '@/lib/web/mint/readsEveryOrder'
import { createRedemption } from '@/lib/web/redemptions/createRedemption'
import { listRedemptions } from '@/lib/web/redemptions/listRedemptions'
import { REDEMPTION_REQUEST_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import { createRedemptionSchema, listRedemptionsQuerySchema } from '@/lib/web/redemptions/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

// GET /api/gold/redemptions?status=&cursor=&limit= - redemptions newest first (staff: their own; approver, admin,
// auditor: all)
export const GET = route({
  roles: ORDER_READERS,
  query: listRedemptionsQuerySchema,
  handler: ({ user, query }) =>
    listRedemptions(getWebDb().db, { ...query, requestedBy: readsEveryOrder(user.role) ? undefined : user.id }),
})

// POST /api/gold/redemptions { depositTx, logIndex?, bars, reference } - a deposit matched to whole backing bars
// of equal fine weight: 202 awaiting approvers' signatures (staff, admin)
export const POST = route({
  roles: REDEMPTION_REQUEST_ROLES,
  body: createRedemptionSchema,
  handler: async ({ user, body }) =>
    json(await createRedemption(getWebDb().db, { input: body, user, minter: getMinterReader() }), 202),
})
