import { isUserRole, type SessionUser } from './SessionUser'

/**
 * The `{ id, email, role }` carried by a next-auth session, or null when the session is
 * missing or does not have that shape (a token issued by older code, a tampered claim).
 * Pure and edge-safe: used by `getSessionUser` and by `proxy.ts`.
 */
export function sessionUserFrom(session: { user?: unknown } | null | undefined): SessionUser | null {
  const user = session?.user
  if (typeof user !== 'object' || user === null) return null
  const { id, email, role } = user as Record<string, unknown>
  if (typeof id !== 'string' || id === '' || typeof email !== 'string' || email === '' || !isUserRole(role)) {
    return null
  }
  return { id, email, role }
}
