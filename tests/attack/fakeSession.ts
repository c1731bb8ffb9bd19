import { AsyncLocalStorage } from 'node:async_hooks'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { SessionClaims } from '@/lib/web/auth/sessionClaimsFrom'
import type { ApiRole } from '@/tests/chaos/api'

/**
 * The one thing the short-form attack tests fake: next-auth's session (a Request built in
 * the test has no cookie). The user lives in an AsyncLocalStorage, so requests running
 * at once as staff and as admin never see each other's session. Use it with
 *
 *   vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)
 */
export const sessionStore = new AsyncLocalStorage<SessionUser | null>()

/** The id every fake session carries: never signed out (no row in revoked_sessions). */
const FAKE_SESSION_ID = '00000000-0000-4000-8000-00000000f00d'

const current = async (): Promise<SessionUser | null> => sessionStore.getStore() ?? null

/**
 * The claims of the current user's session (POST /api/gold/mint's statement checks them against the row): a fresh
 * user's session_version, 0.
 */
const claims = async (): Promise<SessionClaims | null> => {
  const user = await current()
  return user
    ? {
        id: user.id,
        email: user.email,
        role: user.role,
        sessionVersion: 0,
        authTime: Math.floor(Date.now() / 1000) - 60,
        sessionId: FAKE_SESSION_ID,
      }
    : null
}

export const fakeSessionModule = {
  getSessionUser: current,
  getSessionClaims: claims,
  requireUser: current,
  requireAdmin: current,
  requireRole: current,
}

/** `runAs` for createHandlerApi: the role's user (or none) for the duration of one handler call. */
export function runAsWith(users: Partial<Record<ApiRole, SessionUser>>) {
  return (role: ApiRole | undefined, fn: () => Promise<Response>) => {
    const user = role ? users[role] : null
    if (user === undefined) throw new Error(`no test user for the role ${role}`)
    return sessionStore.run(user, fn)
  }
}
