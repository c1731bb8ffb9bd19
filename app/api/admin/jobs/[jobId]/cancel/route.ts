// POST /api/admin/jobs/{jobId}/cancel - a job stops for good, its
// order becomes cancelled, its nonce released; audited (admin)
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { jobIdParamsSchema } from '@/lib/web/admin/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: jobIdParamsSchema,
  handler: ({ params, user }) =>
    cancelJob(getWebDb().db, { jobId: params.jobId, actor: { id: user.id, email: user.email } }),
})
