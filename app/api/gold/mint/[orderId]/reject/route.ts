import { z } from 'zod'
import { rejectMintOrder } from '@/lib/web/approvals/rejectMintOrder'
import { rejectMintOrderSchema } from '@/lib/web/approvals/rejectMintOrderSchema'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/mint/{orderId}/reject - a second person rejects, with
// a reason: its bars are freed (approver, admin; never the requester)
export const POST = route({
  roles: ['approver', 'admin'],
  params: z.object({ orderId: z.string() }),
  body: rejectMintOrderSchema,
  handler: ({ user, params, body }) =>
    rejectMintOrder(getWebDb().db, { orderId: params.orderId, user, reason: body.reason }),
})
