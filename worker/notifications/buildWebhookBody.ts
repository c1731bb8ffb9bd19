import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { publicFailureReason } from '@/lib/notifications/publicFailureReason'

export type WebhookEvent = { id: string; type: string; createdAt: Date; payload: unknown }

/** `evt_<uuid>`: the id receivers dedupe on (the webhook-id header) */
export function publicEventId(eventId: string): string {
  return `evt_${eventId}`
}

/**
 * The raw JSON body of an event (docs/api.md "Webhooks and email", the Standard Webhooks
 * payload): `{ type, timestamp, data: { orderId, status, to, amount, txHash, ... } }`, the
 * timestamp when the event happened (ISO 8601), amount in fine ounces as a decimal
 * string. A `reason` (and `lastError`) is a stable code (publicFailureReason): an error's
 * text never leaves, even from an event recorded before the codes. The same bytes for
 * every attempt of the event: the signature covers them.
 */
export function buildWebhookBody(event: WebhookEvent): string {
  const { amountWei, ...rest } = (
    typeof event.payload === 'object' && event.payload !== null ? event.payload : {}
  ) as Record<string, unknown>
  const amount = typeof amountWei === 'string' ? formatOrderAmount(amountWei) : null
  if ('reason' in rest) rest.reason = publicFailureReason(rest.reason)
  if ('lastError' in rest) rest.lastError = publicFailureReason(rest.lastError)
  // the contract's fields first (orderId, status, to, amount, txHash), then the event's own (reason, task)
  const ordered: Record<string, unknown> = {
    orderId: rest.orderId,
    status: rest.status,
    to: rest.to,
    amount,
    txHash: rest.txHash ?? null,
    ...rest,
  }
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: ordered })
}
