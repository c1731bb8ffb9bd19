import type { ReactNode } from 'react'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'

/**
 * The admin pages' guard, on the server on every request: the role is the user's row's
 * (lib/web/auth/getSessionUser.ts), so a demotion or a disable takes effect at once; the
 * proxy looks at no role. Not signed in (or a session that no longer stands) -> /login,
 * another role -> /forbidden. The console layout and each page check again (they render
 * in parallel).
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireAdminReader()
  return <>{children}</>
}
