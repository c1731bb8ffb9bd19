// POST /api/admin/jobs/retry - bulk retry: { jobIds: [...] }
// or { state: "dead", task?: "..." }; audited per job (admin)
import { retryJobs } from '@/lib/web/admin/retryJobs'
import { bulkRetryBodySchema } from '@/lib/web/admin/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  body: bulkRetryBodySchema,
  handler: ({ body, user }) => retryJobs(getWebDb().db, { ...body, actor: { id: user.id, email: user.email } }),
})
