// GET /api/admin/users - every user with role, disabled flag and session version (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { listUsers } from '@/lib/web/users/listUsers'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => listUsers(getWebDb().db),
})
