import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { getWebDb } from '@/lib/web/webProcess'

// GET /api/gold/mint/{orderId} - one order with its proof, decision, transaction and timeline (owner, approver, admin)
export const GET = route({
  roles: ORDER_READERS,
  params: orderIdParamsSchema,
  handler: ({ user, params }) => getMintOrderOrThrow(getWebDb().db, { orderId: params.orderId, user }),
})
