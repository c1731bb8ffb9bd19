import type { ExpositionFamily } from '@/lib/web/ops/formatExposition'
import type { ApiSqsQueueMetrics } from './apiTypes'

/**
 * The SQS transport's gauges for GET /api/metrics (QUEUE_TRANSPORT=sqs, decision 021),
 * from readSqsQueueMetrics: the queue's messages by state (unsent: in the outbox, waiting,
 * in flight), the oldest unfinished message's age and the dead-letter queue's depth
 * (should be 0; CloudWatch alarms on the real queue in production).
 */
export function sqsGauges(m: ApiSqsQueueMetrics): ExpositionFamily[] {
  return [
    {
      name: 'mintdesk_sqs_messages',
      help: 'mint_send messages of the SQS transport by state: unsent (outbox), waiting (in the queue), in_flight (received, visibility extended).',
      type: 'gauge' as const,
      samples: [
        { labels: { state: 'unsent' }, value: m.unsent },
        { labels: { state: 'waiting' }, value: m.depth },
        { labels: { state: 'in_flight' }, value: m.inFlight },
      ],
    },
    {
      name: 'mintdesk_sqs_oldest_message_age_seconds',
      help: 'Age of the oldest mint_send message sent to SQS and not finished.',
      type: 'gauge' as const,
      samples: [{ value: m.oldestAgeSeconds }],
    },
    {
      name: 'mintdesk_sqs_dead_letters',
      help: 'Messages in the SQS dead-letter queue at the worker last scan (should be 0).',
      type: 'gauge' as const,
      samples: [{ value: m.deadLetters }],
    },
  ]
}
