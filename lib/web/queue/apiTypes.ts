import type { z } from 'zod'
import type {
  sqsDeadLetterListSchema,
  sqsDeadLetterSchema,
  sqsDeadLetterSkipReasonSchema,
  sqsQueueMetricsSchema,
  sqsRetryResultSchema,
} from './responseSchemas'

/**
 * The JSON of the SQS dead-letter routes, inferred from their zod schemas (./responseSchemas.ts, which the OpenAPI
 * document describes the routes with). The import is type-only: a component reading this file loads no schema.
 */

/** One SQS dead letter as the admin page shows it (GET /api/admin/dead-letters/sqs). */
export type ApiSqsDeadLetter = z.infer<typeof sqsDeadLetterSchema>

/** GET /api/admin/dead-letters/sqs */
export type ApiSqsDeadLetterList = z.infer<typeof sqsDeadLetterListSchema>

/** The SQS transport's figures, from Postgres: the outbox, the job history and the DLQ as last listed. */
export type ApiSqsQueueMetrics = z.infer<typeof sqsQueueMetricsSchema>

export type SqsDeadLetterSkipReason = z.infer<typeof sqsDeadLetterSkipReasonSchema>

/** POST /api/admin/dead-letters/sqs/retry */
export type ApiSqsRetryResult = z.infer<typeof sqsRetryResultSchema>
