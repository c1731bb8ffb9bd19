import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { listDeposits } from '@/lib/web/redemptions/listDeposits'
import { listDepositsQuerySchema } from '@/lib/web/redemptions/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

// GET /api/gold/deposits?status=unmatched|matched|redeemed&limit= - the transfers to the redemption address the
// worker has seen with their confirmations, newest first (staff, approver, admin, auditor)
export const GET = route({
  roles: ORDER_READERS,
  query: listDepositsQuerySchema,
  handler: ({ query }) => listDeposits(getWebDb().db, query),
})
