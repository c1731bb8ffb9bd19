/** The events a webhook can subscribe to (docs/api.md "Webhooks and email"); client-safe (no db import). */
export const NOTIFICATION_EVENT_TYPES = [
  'mint.awaiting_approval',
  'mint.confirmed',
  'mint.failed',
  'mint.dead_letter',
] as const
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number]
