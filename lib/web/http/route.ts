import { unstable_rethrow } from 'next/navigation'
import { getSessionClaims, getSessionUser } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { createRouteWrapper } from './createRouteWrapper'

export type {
  NextRouteHandler,
  RouteAccess,
  RouteHandlerArgs,
  RouteOptions,
  SessionRowCheck,
} from './createRouteWrapper'

/**
 * THE route-handler wrapper: auth, roles, same-origin check, body/query/params parsing
 * and error mapping, so a route file is one domain call:
 *
 * ```ts
 * // GET /api/gold/mint/{orderId} - one order
 * export const GET = route({
 *   roles: ['staff', 'approver', 'admin'],
 *   params: z.object({ orderId: z.string() }),
 *   handler: ({ user, params }) => getMintOrderOrThrow(getWebDb().db, { orderId: params.orderId, user }),
 * })
 * ```
 *
 * POST /api/gold/mint is the one `sessionRow: 'in_handler'` route: its handler hands the
 * claimed user to createMintOrder, whose statement checks the row.
 */
// getSessionUser reads the user's row on every call (role, disabled, session version):
// a role change or a disabled user takes effect on that user's next request (docs/api.md "Auth").
// getSessionClaims only decrypts the cookie, for the route whose domain call checks the row.
export const route = createRouteWrapper({
  getUser: getSessionUser,
  getClaims: getSessionClaims,
  getSessionMaxAgeSeconds: () => getConfig('web').sessionMaxAgeSeconds,
  getAppUrl: () => getConfig('web').appUrl,
  rethrow: unstable_rethrow,
})
