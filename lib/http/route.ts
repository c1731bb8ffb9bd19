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
 *     const result = await requestMint(getDb().db, { user, request: body, idempotencyKey: req.headers.get('idempotency-key') })
 *     return json(result, 202)
 *   },
 * })
 * ```
 */
export const route = createRouteWrapper({
  getUser: getSessionUser,
  getAppUrl: () => getConfig('web').appUrl,
  rethrow: unstable_rethrow,
})
