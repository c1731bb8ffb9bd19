import { z } from 'zod'
import { JOB_STATES } from '@/lib/jobs/jobStates'

/**
 * The answers of the SQS dead-letter routes (docs/api.md "Admin") as zod schemas: lib/web/queue/apiTypes.ts infers
 * its types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Times ISO 8601.
 */

/** One SQS dead letter as the admin page shows it. */
export const sqsDeadLetterSchema = z.object({
  messageId: z.string(),
  jobId: z.string().nullable(),
  orderId: z.string().nullable(),
  orderStatus: z.string().nullable(),
  /** receives on the main queue before SQS moved it (the job's attempts) */
  receiveCount: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  firstSeenAt: z.string(),
  /**
   * set when the worker is to move this message back as it is (one without a job, or one stamped before
   * generations); a job's retry instead sends a new message and drops this one
   */
  retryRequestedAt: z.string().nullable(),
})

/** The SQS transport's figures, from Postgres: the outbox, the job history and the DLQ as last listed. */
export const sqsQueueMetricsSchema = z.object({
  /** outbox rows the relay has not sent yet */
  unsent: z.number().int(),
  /** sent, waiting to be received (or to be received again after a failure) */
  depth: z.number().int(),
  /** received and being worked now */
  inFlight: z.number().int(),
  /** age of the oldest message sent and not finished, seconds; 0 when none */
  oldestAgeSeconds: z.number(),
  /** messages in the dead-letter queue at the worker's last scan */
  deadLetters: z.number().int(),
})

/** GET /api/admin/dead-letters/sqs: what carries mint_send, the dead letters, the figures */
export const sqsDeadLetterListSchema = z.object({
  transport: z.enum(['postgres', 'sqs']),
  items: z.array(sqsDeadLetterSchema),
  metrics: sqsQueueMetricsSchema,
})

export const sqsDeadLetterSkipReasonSchema = z.enum([
  /** no such message listed (never, or the worker's scan dropped it since) */
  'not_found',
  /** stamped for a retry already (by a web from before generations) */
  'already_requested',
  /**
   * its job no longer needs it: done or cancelled, retried since (from the jobs page, or another of its messages),
   * or running, queued or waiting with a newer message
   */
  'not_dead',
])

/** POST /api/admin/dead-letters/sqs/retry: the messages retried, and those skipped with why */
export const sqsRetryResultSchema = z.object({
  retried: z.array(z.string()),
  skipped: z.array(
    z.object({
      messageId: z.string(),
      reason: sqsDeadLetterSkipReasonSchema,
      jobState: z.enum(JOB_STATES).nullable().optional(),
    }),
  ),
})
