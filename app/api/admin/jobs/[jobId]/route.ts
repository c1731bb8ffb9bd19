// GET /api/admin/jobs/{jobId} - one job: payload, attempts, errors with stacks, timeline, its order (admin)

import { getJobDetailOrThrow } from '@/lib/web/admin/getJobDetailOrThrow'
import { jobIdParamsSchema } from '@/lib/web/admin/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  params: jobIdParamsSchema,
  handler: ({ params }) => getJobDetailOrThrow(getWebDb().db, { jobId: params.jobId }),
})
