// GET /api/admin/jobs?state=&task=&q=&cursor=&limit=&housekeeping= - jobs newest first, filtered, keyset-paginated;
// the housekeeping tasks' routine jobs hidden unless housekeeping=show (admin)

import { listJobs } from '@/lib/web/admin/listJobs'
import { listJobsQuerySchema } from '@/lib/web/admin/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  query: listJobsQuerySchema,
  handler: ({ query }) => listJobs(getWebDb().db, query),
})
