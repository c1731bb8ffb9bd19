import { getMintApprovalOrThrow } from '@/lib/web/approvals/getMintApprovalOrThrow'
import { route } from '@/lib/web/http/route'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

// GET /api/gold/mint/{orderId}/approval - the order's MintIntent typed data to sign, how many
// approvers it needs, and the signatures so far (approver, admin)
export const GET = route({
  roles: ['approver', 'admin'],
  params: orderIdParamsSchema,
  handler: ({ params }) =>
    getMintApprovalOrThrow(getWebDb().db, { orderId: params.orderId, minter: getMinterReader() }),
})
