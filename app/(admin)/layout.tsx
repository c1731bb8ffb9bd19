import type { ReactNode } from 'react'
import { ForbiddenMessage } from '@/components/auth/ForbiddenMessage'
import { requireUser } from '@/lib/auth/getSessionUser'
import { homePathFor } from '@/lib/auth/homePathFor'

/**
 * Defense in depth: proxy.ts already sends staff away from /admin/**, but this layout
 * checks the role again on the server, so a matcher change or a missed path cannot
 * expose an admin page.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await requireUser()
  if (user.role !== 'admin') return <ForbiddenMessage homeHref={homePathFor(user.role)} />
  return <>{children}</>
}
