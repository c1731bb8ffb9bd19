import { isUuid } from '@/lib/mint/isUuid'
import { isUserRole, type UserRole } from './SessionUser'

/**
 * What a session token carries, written once at sign-in (lib/web/auth/nextAuthConfig.ts):
 * who (`id`, `email`), the role at sign-in (shown, never used to authorize), the user's
 * `session_version` at sign-in, the sign-in time (unix seconds) for the absolute
 * lifetime, and the session's own id (`sid`, a random uuid per sign-in): sign-out
 * records it in `revoked_sessions` (lib/web/auth/revokeSession.ts), which ends that
 * session, and no other, on the server.
 */
export type SessionClaims = {
  id: string
  email: string
  role: UserRole
  sessionVersion: number
  authTime: number
  sessionId: string
}

/**
 * The claims of a decoded session token, or null when it does not have that shape (a
 * token issued by older code without a version, sign-in time or session id, a tampered
 * claim). Pure and edge-safe: the proxy and the server-side check both use it.
 */
export function sessionClaimsFrom(token: unknown): SessionClaims | null {
  if (typeof token !== 'object' || token === null) return null
  const { id, email, role, sv, authTime, sid } = token as Record<string, unknown>
  if (typeof id !== 'string' || id === '' || typeof email !== 'string' || email === '' || !isUserRole(role)) return null
  if (!Number.isSafeInteger(sv) || !Number.isSafeInteger(authTime)) return null
  if (typeof sid !== 'string' || !isUuid(sid)) return null
  return { id, email, role, sessionVersion: sv as number, authTime: authTime as number, sessionId: sid }
}
