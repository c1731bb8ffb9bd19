// GET /api/admin/users - every user with role, disabled flag and session version (admin)
import { route } from '@/lib/web/http/route'
import { listUsers } from '@/lib/web/users/listUsers'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ['admin'],
  handler: () => listUsers(getWebDb().db),
})
