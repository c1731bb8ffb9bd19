import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextAuth'
import type { SessionUser } from './SessionUser'
import { sessionUserFrom } from './sessionUserFrom'

/** The signed-in user of this request (server components, route handlers, server actions), or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  return sessionUserFrom(await auth())
}

/** The signed-in user; not signed in -> redirect to /login. For server components. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser()
  if (!user) redirect('/login')
  return user
}

/** The signed-in admin; staff -> redirect to /forbidden, not signed in -> /login. For server components. */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await requireUser()
  if (user.role !== 'admin') redirect('/forbidden')
  return user
}
