/** The events a webhook can subscribe to (docs/api.md "Webhooks and email"); client-safe (no db import). */
export const NOTIFICATION_EVENT_TYPES = [
  'mint.awaiting_approval',
  'mint.confirmed',
  'mint.failed',
  'mint.dead_letter',
  /** its transaction broadcast the first time (txHash) */
  'mint.submitted',
  /** a fee bump replaced its transaction (txHash the new one, replaced the old) */
  'mint.replaced',
  /** its mined transaction was reorged away: submitted again until it is mined again */
  'mint.reorged',
] as const
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number]
