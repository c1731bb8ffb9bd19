import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { streamSubject } from '@/lib/web/live/streamSubject'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { getSubjectListener, getWebDb } from '@/lib/web/webProcess'

// GET /api/gold/mint/{orderId}/events - the order as GET /api/gold/mint/{orderId} gives it, as Server-Sent Events:
// a snapshot at once, then one after each step on its timeline (docs/api.md, Live order status)
export const GET = route({
  roles: ORDER_READERS,
  params: orderIdParamsSchema,
  handler: async ({ user, params, req }) => {
    const read = () => getMintOrderOrThrow(getWebDb().db, { orderId: params.orderId, user })
    // a 404 before the stream opens: the order is not this viewer's
    await read()
    return streamSubject({
      listener: getSubjectListener(),
      id: params.orderId,
      event: 'order',
      read,
      signal: req.signal,
    })
  },
})
