import type { NotificationEventType } from './eventTypes'

/** A subscription as the API shows it: never its secret. */
export type ApiWebhookEndpoint = {
  id: string
  url: string
  events: NotificationEventType[]
  createdBy: string | null
  createdAt: string
  /** deliveries by status */
  counts: { pending: number; delivered: number; dead: number }
}

/** POST /api/admin/webhooks: the endpoint, and its secret: the only time it is shown. */
export type ApiCreatedWebhook = { id: string; secret: string; url: string; events: NotificationEventType[] }

/** POST /api/admin/webhooks/{id}/rotate-secret: the new secret, shown once, and when the one before stops signing. */
export type ApiRotatedWebhookSecret = { id: string; secret: string; previousSecretExpiresAt: string }

export type ApiDeliveryAttempt = {
  attempt: number
  startedAt: string
  durationMs: number
  statusCode: number | null
  ok: boolean
  error: string | null
  responseExcerpt: string | null
}

export type ApiWebhookDelivery = {
  id: string
  eventId: string
  eventType: string
  /** the mint order the event is about; null for an event of a redemption, a compliance operation or a deposit */
  orderId: string | null
  status: 'pending' | 'delivered' | 'dead' | 'cancelled'
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  deliveredAt: string | null
  createdAt: string
  attemptLog: ApiDeliveryAttempt[]
}
