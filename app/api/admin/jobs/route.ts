// GET /api/admin/jobs?state=&task=&q=&cursor=&limit= - jobs newest first, filtered, keyset-paginated (admin)
import { getDb } from '@/db'
import { listJobs } from '@/lib/admin/listJobs'
import { listJobsQuerySchema } from '@/lib/admin/schemas'
import { route } from '@/lib/http/route'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ['admin'],
  query: listJobsQuerySchema,
  handler: ({ query }) => listJobs(getDb().db, query),
})
