import type { ReactNode } from 'react'
import { AdminNav } from '@/components/admin/AdminNav'
import { requireAdmin } from '@/lib/web/auth/getSessionUser'

/**
 * The admin console's sections. The (admin) layout above has
 * checked the role; this checks again (pages render in parallel).
 */
export default async function AdminConsoleLayout({ children }: { children: ReactNode }) {
  await requireAdmin()
  return (
    <div>
      <AdminNav />
      {children}
    </div>
  )
}
