// first: the browser's zod must not probe for eval (a CSP violation) when the schemas below are built
import '@/lib/web/zodWithoutEval'
import { z } from 'zod'
import { NOTIFICATION_EVENT_TYPES } from './eventTypes'

/** POST /api/admin/webhooks: a URL (checked again, after DNS, by checkWebhookTarget) and at least one known event */
export const createWebhookBodySchema = z.strictObject({
  url: z.string().trim().min(1, 'A URL is required.').max(2000, 'At most 2000 characters.'),
  events: z
    .array(
      z.enum(NOTIFICATION_EVENT_TYPES, {
        error: `Unknown event; the events are ${NOTIFICATION_EVENT_TYPES.join(', ')}.`,
      }),
    )
    .min(1, 'Subscribe to at least one event.')
    .max(NOTIFICATION_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)]),
})

/** `{id}` of /api/admin/webhooks/{id} */
export const webhookParamsSchema = z.object({ id: z.string() })

/** `{deliveryId}` of /api/admin/webhooks/deliveries/{deliveryId}/redeliver */
export const deliveryParamsSchema = z.object({ deliveryId: z.string() })

export type CreateWebhookBody = z.output<typeof createWebhookBodySchema>
