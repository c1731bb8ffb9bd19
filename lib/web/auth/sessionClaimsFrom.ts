import { isUserRole, type UserRole } from './SessionUser'

/**
 * What a session token carries, written once at sign-in (lib/web/auth/nextAuthConfig.ts):
 * who (`id`, `email`), the role at sign-in (shown, never used to authorize), the user's
 * `session_version` at sign-in and the sign-in time (unix seconds) for the absolute
 * lifetime.
 */
export type SessionClaims = { id: string; email: string; role: UserRole; sessionVersion: number; authTime: number }

/**
 * The claims of a decoded session token, or null when it does not have that shape (a
 * token issued by older code without a version or sign-in time, a tampered claim). Pure
 * and edge-safe: the proxy and the server-side check both use it.
 */
export function sessionClaimsFrom(token: unknown): SessionClaims | null {
  if (typeof token !== 'object' || token === null) return null
  const { id, email, role, sv, authTime } = token as Record<string, unknown>
  if (typeof id !== 'string' || id === '' || typeof email !== 'string' || email === '' || !isUserRole(role)) return null
  if (!Number.isSafeInteger(sv) || !Number.isSafeInteger(authTime)) return null
  return { id, email, role, sessionVersion: sv as number, authTime: authTime as number }
}
