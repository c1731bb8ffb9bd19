// GET /api/metrics - Prometheus text format: snapshot gauges, counters and histograms;
// needs Authorization: Bearer $METRICS_TOKEN
import { readJobMetrics } from '@/lib/web/admin/readJobMetrics'
import { readSystemStatus } from '@/lib/web/admin/readSystemStatus'
import { systemStatusParameters } from '@/lib/web/admin/systemStatusParameters'
import { verifyBearerToken } from '@/lib/web/admin/verifyBearerToken'
import { getConfig } from '@/lib/web/config/getConfig'
import { UnauthenticatedError } from '@/lib/web/errors/auth'
import { route } from '@/lib/web/http/route'
import { formatExposition } from '@/lib/web/ops/formatExposition'
import { listCounterFamilies } from '@/lib/web/ops/listCounterFamilies'
import { snapshotGauges } from '@/lib/web/ops/snapshotGauges'
import { readSqsQueueMetrics } from '@/lib/web/queue/readSqsQueueMetrics'
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
      readJobMetrics(db, { heartbeatMs: config.worker.heartbeatMs, staleAfterMs: config.worker.staleAfterMs }),
      readSystemStatus(db, systemStatusParameters(config)),
      listCounterFamilies(db),
    ])
    // QUEUE_TRANSPORT=sqs: the SQS queue's gauges (lib/web/queue/sqsGauges, decision 021)
    const sqs = config.queueTransport === 'sqs' ? sqsGauges(await readSqsQueueMetrics(db)) : []
    return new Response(formatExposition([...snapshotGauges({ metrics, system }), ...sqs, ...counters]), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    })
  },
})
