import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { SessionClaims } from '@/lib/web/auth/sessionClaimsFrom'

/**
 * The session a route test signs in with: next-auth's cookie is the one thing a Request
 * built in a test lacks, so the session module is replaced by one that answers this user.
 * Use in the test file (vi.mock is hoisted there, and this module imports nothing real):
 * `vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) =>
 * m.fakeSessionModule))` The user's row is not read by the fake (getSessionUser answers the user as given); the
 * claims it gives (getSessionClaims, for POST /api/gold/mint, whose statement checks the
 * row) carry the session_version a fresh test user has, 0, unless signInAs says otherwise.
 */
export const fakeSession = { user: null as SessionUser | null, sessionVersion: 0 }

/** What stands in for @/lib/web/auth/getSessionUser: every lookup answers the fake session's user. */
export const fakeSessionModule = {
  getSessionUser: async () => fakeSession.user,
  getSessionClaims: async (): Promise<SessionClaims | null> => {
    const user = fakeSession.user
    if (!user) return null
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      sessionVersion: fakeSession.sessionVersion,
      authTime: Math.floor(Date.now() / 1000) - 60,
      // never signed out: no row in revoked_sessions has it
      sessionId: '00000000-0000-4000-8000-00000000f00d',
    }
  },
  requireUser: async () => fakeSession.user,
  requireAdmin: async () => fakeSession.user,
}

/**
 * Signs the next requests in as `user` (null: signed out), with the session version its session holds (0 unless told).
 */
export function signInAs(user: SessionUser | null, { sessionVersion = 0 }: { sessionVersion?: number } = {}): void {
  fakeSession.user = user
  fakeSession.sessionVersion = sessionVersion
}
