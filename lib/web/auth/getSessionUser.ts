import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { sessionCookie } from '@/lib/web/auth/sessionCookie'
import { getConfig } from '@/lib/web/config/getConfig'
import { getWebDb } from '@/lib/web/webProcess'
import { logSessionRefusal } from './logSessionRefusal'
import { readSessionClaims } from './readSessionClaims'
import { ADMIN_READERS, type SessionUser, type UserRole } from './SessionUser'
import type { SessionClaims } from './sessionClaimsFrom'
import { verifySession } from './verifySession'

/**
 * The signed-in user of this request (route handlers through lib/web/http/route.ts, server
 * components, server actions), or null: the session cookie decrypted, then checked
 * against the user's row (verifySession: lifetime, disabled, session version; the role
 * is the database's). `cache` shares one answer between the layouts and the page of ONE
 * render; nothing is kept across requests.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const claims = await getSessionClaims()
  if (!claims) return null
  const verdict = await verifySession(getWebDb().db, {
    claims,
    now: new Date(),
    maxAgeSeconds: getConfig('web').sessionMaxAgeSeconds,
  })
  if (verdict.ok) return verdict.user
  logSessionRefusal({ reason: verdict.reason, userId: claims.id })
  return null
})

/**
 * The session cookie's claims on this request, decrypted (remembered per process by the
 * cookie's text: lib/web/auth/sessionTokenCache.ts) and NOT checked against the user's row:
 * for the route wrapper's `sessionRow: 'in_handler'` routes, whose domain call checks the
 * row in its own statement. Anything else wants getSessionUser. Here, beside it, so that a
 * test replacing this module (tests/helpers/fakeSession.ts) replaces both.
 */
export async function getSessionClaims(): Promise<SessionClaims | null> {
  return readSessionClaims({ cookieHeader: (await headers()).get('cookie'), ...sessionCookie() })
}

/** The signed-in user; not signed in (or a refused session) -> redirect to /login. For server components. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser()
  if (!user) redirect('/login')
  return user
}

/** The signed-in user with one of these roles (the database's); another role -> /forbidden, not signed in -> /login. */
export async function requireRole(roles: readonly UserRole[]): Promise<SessionUser> {
  const user = await requireUser()
  if (!roles.includes(user.role)) redirect('/forbidden')
  return user
}

/** The signed-in admin; any other role -> /forbidden, not signed in -> /login. For server components. */
export async function requireAdmin(): Promise<SessionUser> {
  return requireRole(['admin'])
}

/**
 * The signed-in admin or auditor, for the console's pages (an auditor reads what an admin reads, and
 * its pages show an auditor no action); another role -> /forbidden, not signed in -> /login.
 */
export async function requireAdminReader(): Promise<SessionUser> {
  return requireRole(ADMIN_READERS)
}
