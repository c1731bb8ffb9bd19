// POST /api/admin/jobs/{jobId}/retry - a dead or retrying job runs again now, attempts reset; audited (admin)
import { retryJob } from '@/lib/web/admin/retryJob'
import { jobIdParamsSchema } from '@/lib/web/admin/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: jobIdParamsSchema,
  handler: ({ params, user }) =>
    retryJob(getWebDb().db, { jobId: params.jobId, actor: { id: user.id, email: user.email } }),
})
