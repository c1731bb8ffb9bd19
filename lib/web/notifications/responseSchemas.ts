import { z } from 'zod'
import { NOTIFICATION_EVENT_TYPES } from './eventTypes'

/**
 * The answers of the webhook routes (docs/api.md "Webhooks and email") as zod schemas:
 * lib/web/notifications/apiTypes.ts infers its types from them, and the OpenAPI document (lib/web/openapi) describes
 * the routes with them. Times ISO 8601.
 */

const eventTypes = z.array(z.enum(NOTIFICATION_EVENT_TYPES))

/** A subscription as the API shows it: never its secret. */
export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: eventTypes,
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  /** deliveries by status */
  counts: z.object({ pending: z.number().int(), delivered: z.number().int(), dead: z.number().int() }),
})

/** GET /api/admin/webhooks */
export const webhookEndpointListSchema = z.object({ items: z.array(webhookEndpointSchema) })

/** POST /api/admin/webhooks: the endpoint, and its secret: the only time it is shown. */
export const createdWebhookSchema = z.object({
  id: z.string(),
  secret: z.string(),
  url: z.string(),
  events: eventTypes,
})

/** DELETE /api/admin/webhooks/{id} */
export const deletedWebhookSchema = z.object({ id: z.string(), deleted: z.literal(true) })

/** POST /api/admin/webhooks/{id}/rotate-secret: the new secret, shown once, and when the one before stops signing. */
export const rotatedWebhookSecretSchema = z.object({
  id: z.string(),
  secret: z.string(),
  previousSecretExpiresAt: z.string(),
})

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  durationMs: z.number(),
  statusCode: z.number().int().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
})

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  /** the mint order the event is about; null for an event of a redemption, a compliance operation or a deposit */
  orderId: z.string().nullable(),
  status: z.enum(['pending', 'delivered', 'dead', 'cancelled']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  attemptLog: z.array(deliveryAttemptSchema),
})

/** GET /api/admin/webhooks/{id}/deliveries */
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) })

/** 202 answer of POST /api/admin/webhooks/deliveries/{deliveryId}/redeliver: the delivery and its new job */
export const redeliveredWebhookSchema = z.object({ deliveryId: z.string(), jobId: z.string() })
