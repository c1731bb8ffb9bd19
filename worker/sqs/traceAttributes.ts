import type { MessageAttributeValue } from '@aws-sdk/client-sqs'

/**
 * The message attributes that carry a mint's trace: its W3C `traceparent` as the
 * String attribute `traceparent`, or none (tracing off, an older row). Set by the relay,
 * kept when the consumer sends a message again (a wait) and when the DLQ scan moves one
 * back; the consumer opens the message's job span under it.
 */
export function traceAttributes(
  traceparent: string | null | undefined,
): Record<string, MessageAttributeValue> | undefined {
  return traceparent ? { traceparent: { DataType: 'String', StringValue: traceparent } } : undefined
}
