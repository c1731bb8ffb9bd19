import type { SessionClaims } from './sessionClaimsFrom'

export type SessionPastLifetimeParameters = {
  claims: Pick<SessionClaims, 'authTime'>
  now: Date
  /** the absolute lifetime (SESSION_MAX_AGE_HOURS), counted from the sign-in time in the claims */
  maxAgeSeconds: number
}

/**
 * Whether a session was signed in longer ago than the absolute lifetime, however busy it
 * has been since (docs/api.md "Auth"). The one home of that rule: the row check
 * (lib/web/auth/verifySession.ts) and the route wrapper's claims-only path
 * (lib/web/http/createRouteWrapper.ts, `sessionRow: 'in_handler'`) both ask it.
 */
export function sessionPastLifetime({ claims, now, maxAgeSeconds }: SessionPastLifetimeParameters): boolean {
  return claims.authTime + maxAgeSeconds <= Math.floor(now.getTime() / 1000)
}
