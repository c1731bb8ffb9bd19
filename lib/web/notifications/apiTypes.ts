import type { z } from 'zod'
import type {
  createdWebhookSchema,
  deletedWebhookSchema,
  deliveryAttemptSchema,
  redeliveredWebhookSchema,
  rotatedWebhookSecretSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from './responseSchemas'

// The JSON of the webhook routes, inferred from their zod schemas (./responseSchemas.ts, which the OpenAPI document
// describes the routes with); the import is type-only.

/** A subscription as the API shows it: never its secret. */
export type ApiWebhookEndpoint = z.infer<typeof webhookEndpointSchema>

/** GET /api/admin/webhooks */
export type ApiWebhookEndpointList = z.infer<typeof webhookEndpointListSchema>

/** POST /api/admin/webhooks: the endpoint, and its secret: the only time it is shown. */
export type ApiCreatedWebhook = z.infer<typeof createdWebhookSchema>

/** DELETE /api/admin/webhooks/{id} */
export type ApiDeletedWebhook = z.infer<typeof deletedWebhookSchema>

/** POST /api/admin/webhooks/{id}/rotate-secret: the new secret, shown once, and when the one before stops signing. */
export type ApiRotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>

export type ApiDeliveryAttempt = z.infer<typeof deliveryAttemptSchema>

export type ApiWebhookDelivery = z.infer<typeof webhookDeliverySchema>

/** GET /api/admin/webhooks/{id}/deliveries */
export type ApiWebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>

/** POST /api/admin/webhooks/deliveries/{deliveryId}/redeliver */
export type ApiRedeliveredWebhook = z.infer<typeof redeliveredWebhookSchema>
