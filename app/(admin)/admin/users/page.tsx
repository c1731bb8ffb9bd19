import type { Metadata } from 'next'
import { UsersAdmin } from '@/components/admin/users/UsersAdmin'
import { PageHeading } from '@/components/ui/PageHeading'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { listUsers } from '@/lib/web/users/listUsers'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Users' }

/**
 * /admin/users: every user's role and status; change a role or disable a user, each behind a confirmation (PATCH
 * /api/admin/users/{id}).
 */
export default async function UsersPage() {
  const admin = await requireAdminReader()
  const { items } = await listUsers(getWebDb().db)
  return (
    <div className="space-y-6">
      <PageHeading title="Users">Who may sign in, and with which role.</PageHeading>
      <UsersAdmin initialUsers={items} currentUserId={admin.id} />
    </div>
  )
}
