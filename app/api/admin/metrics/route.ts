// GET /api/admin/metrics - queue depth, oldest queued age, failure rate, p50/p95, dead letters, throughput (admin)

import { readJobMetrics } from '@/lib/web/admin/readJobMetrics'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => {
    const { worker } = getConfig('web')
    return readJobMetrics(getWebDb().db, { heartbeatMs: worker.heartbeatMs, staleAfterMs: worker.staleAfterMs })
  },
})
