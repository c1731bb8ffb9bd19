// GET /api/metrics - Prometheus text format: snapshot gauges, counters and histograms; needs Authorization: Bearer $METRICS_TOKEN
import { getJobMetrics } from '@/lib/admin/getJobMetrics'
import { getSystemStatus } from '@/lib/admin/getSystemStatus'
import { systemStatusParameters } from '@/lib/admin/systemStatusParameters'
import { verifyBearerToken } from '@/lib/admin/verifyBearerToken'
import { getConfig } from '@/lib/config/getConfig'
import { UnauthenticatedError } from '@/lib/errors/auth'
import { route } from '@/lib/http/route'
import { formatExposition } from '@/lib/ops/formatExposition'
import { readCounterFamilies } from '@/lib/ops/readCounterFamilies'
import { snapshotGauges } from '@/lib/ops/snapshotGauges'
import { getSqsQueueMetrics } from '@/lib/queue/getSqsQueueMetrics'
import { sqsGauges } from '@/lib/queue/sqsGauges'
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
    // QUEUE_TRANSPORT=sqs: the SQS queue's gauges (lib/queue/sqsGauges, decision 021)
    const sqs = config.queueTransport === 'sqs' ? sqsGauges(await getSqsQueueMetrics(db)) : []
    return new Response(formatExposition([...snapshotGauges({ metrics, system }), ...sqs, ...counters]), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    })
  },
})
