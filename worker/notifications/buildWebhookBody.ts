import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'

export type WebhookEvent = { id: string; type: string; createdAt: Date; payload: unknown }

/** `evt_<uuid>`: the id receivers dedupe on (the Mintdesk-Event-Id header and the body's `id`) */
export function publicEventId(eventId: string): string {
  return `evt_${eventId}`
}

/**
 * The raw JSON body of an event (docs/api.md "Webhooks and email"): `{ id, type, createdAt,
 * data: { orderId, status, to, amount, txHash, ... } }`, amount in fine ounces as a decimal
 * string. The same bytes for every attempt of the event: the signature covers them.
 */
export function buildWebhookBody(event: WebhookEvent): string {
  const { amountWei, ...rest } = (
    typeof event.payload === 'object' && event.payload !== null ? event.payload : {}
  ) as Record<string, unknown>
  const amount = typeof amountWei === 'string' ? formatOrderAmount(amountWei) : null
  // the contract's fields first (orderId, status, to, amount, txHash), then the event's own (reason, task)
  const ordered: Record<string, unknown> = {
    orderId: rest.orderId,
    status: rest.status,
    to: rest.to,
    amount,
    txHash: rest.txHash ?? null,
    ...rest,
  }
  return JSON.stringify({
    id: publicEventId(event.id),
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    data: ordered,
  })
}
