// GET /api/metrics - Prometheus text format: snapshot gauges, counters
// and histograms; needs Authorization: Bearer $METRICS_TOKEN
import { getJobMetrics } from '@/lib/web/admin/getJobMetrics'
import { getSystemStatus } from '@/lib/web/admin/getSystemStatus'
import { systemStatusParameters } from '@/lib/web/admin/systemStatusParameters'
import { verifyBearerToken } from '@/lib/web/admin/verifyBearerToken'
import { getConfig } from '@/lib/web/config/getConfig'
import { UnauthenticatedError } from '@/lib/web/errors/auth'
import { route } from '@/lib/web/http/route'
import { formatExposition } from '@/lib/web/ops/formatExposition'
import { readCounterFamilies } from '@/lib/web/ops/readCounterFamilies'
import { snapshotGauges } from '@/lib/web/ops/snapshotGauges'
import { getSqsQueueMetrics } from '@/lib/web/queue/getSqsQueueMetrics'
import { sqsGauges } from '@/lib/web/queue/sqsGauges'
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
    const [metrics, system, counters] = await Promise.all([
      getJobMetrics(db, { heartbeatMs: config.worker.heartbeatMs, staleAfterMs: config.worker.staleAfterMs }),
      getSystemStatus(db, systemStatusParameters(config)),
      readCounterFamilies(db),
    ])
    // QUEUE_TRANSPORT=sqs: the SQS queue's gauges (lib/web/queue/sqsGauges)
    const sqs = config.queueTransport === 'sqs' ? sqsGauges(await getSqsQueueMetrics(db)) : []
    return new Response(formatExposition([...snapshotGauges({ metrics, system }), ...sqs, ...counters]), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    })
  },
})
