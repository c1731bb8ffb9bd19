// POST /api/admin/jobs/{jobId}/retry - a dead or retrying job runs again now, attempts reset; audited (admin)
import { getDb } from '@/db'
import { retryJob } from '@/lib/admin/retryJob'
import { jobIdParamsSchema } from '@/lib/admin/schemas'
import { route } from '@/lib/http/route'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: jobIdParamsSchema,
  handler: ({ params, user }) => retryJob(getDb().db, { jobId: params.jobId, actor: { id: user.id, email: user.email } }),
})
