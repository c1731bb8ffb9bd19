import type { ApiSqsDeadLetter, ApiSqsQueueMetrics } from '@/lib/web/queue/apiTypes'
import type { SqsRetryBody } from '@/lib/web/queue/schemas'
import { fetchJson } from './jobsApi'

export type SqsDeadLetters = { transport: 'postgres' | 'sqs'; items: ApiSqsDeadLetter[]; metrics: ApiSqsQueueMetrics }

export const sqsDeadLettersQueryKey = ['admin', 'dead-letters', 'sqs'] as const

export function fetchSqsDeadLetters(): Promise<SqsDeadLetters> {
  return fetchJson<SqsDeadLetters>('/api/admin/dead-letters/sqs')
}

export function retrySqsDeadLetters(
  body: SqsRetryBody,
): Promise<{ retried: string[]; skipped: { messageId: string; reason: string }[] }> {
  return fetchJson('/api/admin/dead-letters/sqs/retry', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}
