import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { sessionCookie } from '@/lib/auth/sessionCookie'
import { getConfig } from '@/lib/config/getConfig'
import { getWebDb } from '@/lib/web/webProcess'
import { readSessionClaims } from './readSessionClaims'
import type { SessionUser, UserRole } from './SessionUser'
import { verifySession } from './verifySession'

/**
 * The signed-in user of this request (route handlers through lib/http/route.ts, server
 * components, server actions), or null: the session cookie decrypted, then checked
 * against the user's row (verifySession: lifetime, disabled, session version; the role
 * is the database's). `cache` shares one answer between the layouts and the page of ONE
 * render; nothing is kept across requests.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const claims = await readSessionClaims({ cookieHeader: (await headers()).get('cookie'), ...sessionCookie() })
  if (!claims) return null
  const verdict = await verifySession(getWebDb().db, { claims, now: new Date(), maxAgeSeconds: getConfig('web').sessionMaxAgeSeconds })
  if (verdict.ok) return verdict.user
  console.warn(JSON.stringify({ level: 'warn', msg: 'session refused', reason: verdict.reason, userId: claims.id }))
  return null
})

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
