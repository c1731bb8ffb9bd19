import { unstable_rethrow } from 'next/navigation'
import { getSessionUser } from '@/lib/auth/getSessionUser'
import { getConfig } from '@/lib/config/getConfig'
import { createRouteWrapper } from './createRouteWrapper'

export type { NextRouteHandler, RouteAccess, RouteHandlerArgs, RouteOptions } from './createRouteWrapper'

/**
 * THE route-handler wrapper: auth, roles, same-origin check, body/query/params parsing
 * and error mapping, so a route file is one domain call:
 *
 * ```ts
 * // POST /api/gold/mint - request a mint
 * export const POST = route({
 *   roles: ['staff', 'admin'],
 *   body: mintRequestSchema,
 *   handler: async ({ req, user, body }) => {
 *     const accepted = await createMintOrder(getWebDb().db, { user, request: body, idempotencyKey: parseIdempotencyKey(req.headers), maxAttempts })
 *     return json(accepted, 202)
 *   },
 * })
 * ```
 */
// getSessionUser reads the user's row on every call (role, disabled, session version):
// a role change or a disabled user takes effect on that user's next request (API.md "Auth").
export const route = createRouteWrapper({
  getUser: getSessionUser,
  getAppUrl: () => getConfig('web').appUrl,
  rethrow: unstable_rethrow,
})
