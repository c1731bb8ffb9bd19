import { approveMintOrder } from '@/lib/web/approvals/approveMintOrder'
import { approveMintOrderSchema } from '@/lib/web/approvals/approveMintOrderSchema'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/mint/{orderId}/approve { signature } - an approver's EIP-712 signature of the
// order's MintIntent; once enough approvers signed: pending + its mint_send job (never the requester)
export const POST = route({
  roles: ['approver', 'admin'],
  params: orderIdParamsSchema,
  body: approveMintOrderSchema,
  handler: ({ user, params, body }) =>
    approveMintOrder(getWebDb().db, {
      orderId: params.orderId,
      user,
      signature: body.signature,
      minter: getMinterReader(),
      maxAttempts: getConfig('web').worker.maxAttempts,
      transport: getConfig('web').queueTransport,
    }),
})
