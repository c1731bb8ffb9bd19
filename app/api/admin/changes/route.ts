// GET /api/admin/changes?status=&cursor=&limit= - control changes, newest first, each with who asked,
// what it changes and who decided it (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'

import { listControlChanges } from '@/lib/web/changes/listControlChanges'
import { listChangesQuerySchema } from '@/lib/web/changes/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  query: listChangesQuerySchema,
  handler: ({ query }) => listControlChanges(getWebDb().db, query),
})
