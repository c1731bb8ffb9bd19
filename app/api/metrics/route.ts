// GET /api/metrics - the admin figures in Prometheus text format; needs Authorization: Bearer $METRICS_TOKEN
import { formatPrometheusMetrics } from '@/lib/admin/formatPrometheusMetrics'
import { getJobMetrics } from '@/lib/admin/getJobMetrics'
import { getSystemStatus } from '@/lib/admin/getSystemStatus'
import { systemStatusParameters } from '@/lib/admin/systemStatusParameters'
import { verifyBearerToken } from '@/lib/admin/verifyBearerToken'
import { getConfig } from '@/lib/config/getConfig'
import { UnauthenticatedError } from '@/lib/errors/auth'
import { route } from '@/lib/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: async ({ req }) => {
    const config = getConfig('web')
    if (!verifyBearerToken({ authorization: req.headers.get('authorization'), expected: config.metricsToken })) {
      throw new UnauthenticatedError('A valid metrics bearer token is required.')
    }
    const { db } = getWebDb()
    const [metrics, system] = await Promise.all([
      getJobMetrics(db, { heartbeatMs: config.worker.heartbeatMs, staleAfterMs: config.worker.staleAfterMs }),
      getSystemStatus(db, systemStatusParameters(config)),
    ])
    return new Response(formatPrometheusMetrics({ metrics, system }), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    })
  },
})
