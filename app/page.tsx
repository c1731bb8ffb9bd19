import { redirect } from 'next/navigation'
import { getSessionUser } from '@/lib/web/auth/getSessionUser'
import { homePathFor } from '@/lib/web/auth/homePathFor'

/** `/`: not signed in -> /login; staff -> /mints; approver -> /approvals; admin -> /admin. */
export default async function HomePage() {
  const user = await getSessionUser()
  redirect(user ? homePathFor(user.role) : '/login')
}
