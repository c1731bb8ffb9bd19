import { z } from 'zod'
import { approveMintOrder } from '@/lib/web/approvals/approveMintOrder'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/mint/{orderId}/approve - a second person approves:
// pending + its mint_send job (approver, admin; never the requester)
export const POST = route({
  roles: ['approver', 'admin'],
  params: z.object({ orderId: z.string() }),
  handler: ({ user, params }) =>
    approveMintOrder(getWebDb().db, {
      orderId: params.orderId,
      user,
      maxAttempts: getConfig('web').worker.maxAttempts,
      transport: getConfig('web').queueTransport,
    }),
})
