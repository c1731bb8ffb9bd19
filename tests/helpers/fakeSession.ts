import type { SessionUser } from '@/lib/auth/SessionUser'

/**
 * The session a route test signs in with: next-auth's cookie is the one thing a Request
 * built in a test lacks, so the session module is replaced by one that answers this user.
 * Use in the test file (vi.mock is hoisted there, and this module imports nothing real):
 * `vi.mock('@/lib/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))`
 */
export const fakeSession = { user: null as SessionUser | null }

/** What stands in for @/lib/auth/getSessionUser: every lookup answers the fake session's user. */
export const fakeSessionModule = {
  getSessionUser: async () => fakeSession.user,
  requireUser: async () => fakeSession.user,
  requireAdmin: async () => fakeSession.user,
}

/** Signs the next requests in as `user` (null: signed out). */
export function signInAs(user: SessionUser | null): void {
  fakeSession.user = user
}
