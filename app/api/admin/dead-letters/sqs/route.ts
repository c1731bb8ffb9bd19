// GET /api/admin/dead-letters/sqs - the SQS dead-letter queue as the
// worker last listed it, and the transport's queue figures (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { listSqsDeadLetters } from '@/lib/web/queue/listSqsDeadLetters'
import { readSqsQueueMetrics } from '@/lib/web/queue/readSqsQueueMetrics'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: async () => {
    const { db } = getWebDb()
    return {
      transport: getConfig('web').queueTransport,
      items: await listSqsDeadLetters(db),
      metrics: await readSqsQueueMetrics(db),
    }
  },
})
