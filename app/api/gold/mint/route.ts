import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { withSpan } from '@/lib/telemetry/withSpan'
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { listMintOrders } from '@/lib/web/mint/listMintOrders'
import { listMintOrdersQuerySchema } from '@/lib/web/mint/listMintOrdersQuerySchema'
import { MINT_REQUEST_ROLES } from '@/lib/web/mint/mintRequestRoles'
import { parseIdempotencyKey } from '@/lib/web/mint/parseIdempotencyKey'
import { traceIntake } from '@/lib/web/telemetry/traceIntake'
import { getWebDb } from '@/lib/web/webProcess'

// POST /api/gold/mint - request a mint (202 at once; the worker does the chain work)
// The user's row is checked by the order's own statement, not read by the wrapper first (one round trip per order:
// docs/decisions/031-intake-in-one-statement.md); the answers are the same 401/403.
export const POST = route({
  roles: MINT_REQUEST_ROLES,
  sessionRow: 'in_handler',
  body: mintRequestSchema,
  handler: ({ req, user, body }) =>
    traceIntake(async () => {
      const config = getConfig('web')
      // the order's one transaction, a span of the mint's trace; its traceparent goes into the job
      const accepted = await withSpan('mint.createOrder', {}, () =>
        createMintOrder(getWebDb().db, {
          session: user,
          request: body,
          idempotencyKey: parseIdempotencyKey(req.headers),
          maxAttempts: config.worker.maxAttempts,
          tokenAddress: config.tokenAddress,
          transport: config.queueTransport,
        }),
      )
      return json(accepted, 202, { headers: { location: accepted.statusUrl } })
    }),
})

// GET /api/gold/mint?status=&cursor=&limit= - orders newest first (staff: own; approver, admin, auditor: all)
export const GET = route({
  roles: ORDER_READERS,
  query: listMintOrdersQuerySchema,
  handler: ({ user, query }) => listMintOrders(getWebDb().db, { user, ...query }),
})
