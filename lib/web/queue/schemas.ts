import { z } from 'zod'

/** POST /api/admin/dead-letters/sqs/retry: chosen messages, or every one listed */
export const sqsRetryBodySchema = z.union([
  z.strictObject({ messageIds: z.array(z.string().min(1).max(128)).min(1).max(500) }),
  z.strictObject({ all: z.literal(true) }),
])

export type SqsRetryBody = z.infer<typeof sqsRetryBodySchema>
