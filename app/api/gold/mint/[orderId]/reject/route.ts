import { rejectMintOrder } from '@/lib/web/approvals/rejectMintOrder'
import { rejectMintOrderSchema } from '@/lib/web/approvals/rejectMintOrderSchema'
import { route } from '@/lib/web/http/route'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/mint/{orderId}/reject - a second person rejects, with
// a reason: its bars are freed (approver, admin; never the requester)
export const POST = route({
  roles: ['approver', 'admin'],
  params: orderIdParamsSchema,
  body: rejectMintOrderSchema,
  handler: ({ user, params, body }) =>
    rejectMintOrder(getWebDb().db, { orderId: params.orderId, user, reason: body.reason }),
})
