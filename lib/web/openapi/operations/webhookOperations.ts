import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import {
  createdWebhookSchema,
  deletedWebhookSchema,
  redeliveredWebhookSchema,
  rotatedWebhookSecretSchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
} from '@/lib/web/notifications/responseSchemas'
import { createWebhookBodySchema, deliveryParamsSchema, webhookParamsSchema } from '@/lib/web/notifications/schemas'
import type { ApiOperation } from '../ApiOperation'

const admin = ['admin'] as const

/** The admin API's webhook subscriptions (docs/api.md "Webhooks and email"): subscribe, list, rotate, redeliver. */
export const webhookOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/admin/webhooks',
    summary: 'The live subscriptions with their delivery counts, never a secret',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The subscriptions', schema: webhookEndpointListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks',
    summary: 'Subscribes an endpoint; the secret is shown once (audited)',
    roles: admin,
    body: createWebhookBodySchema,
    success: { status: 201, description: 'The subscription and its secret', schema: createdWebhookSchema },
    errors: { 503: 'webhooks_not_configured' },
  },
  {
    method: 'delete',
    path: '/api/admin/webhooks/{id}',
    summary: "Unsubscribes an endpoint (its deliveries' history stays) (audited)",
    roles: admin,
    params: webhookParamsSchema,
    success: { status: 200, description: 'The subscription removed', schema: deletedWebhookSchema },
  },
  {
    method: 'get',
    path: '/api/admin/webhooks/{id}/deliveries',
    summary: "The endpoint's deliveries, newest first, each with its attempts",
    roles: ADMIN_READERS,
    params: webhookParamsSchema,
    success: { status: 200, description: 'The deliveries', schema: webhookDeliveryListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks/{id}/rotate-secret',
    summary: 'A new signing secret, shown once; the one it replaces signs beside it for 24 h (audited)',
    roles: admin,
    params: webhookParamsSchema,
    success: { status: 200, description: 'The new secret', schema: rotatedWebhookSecretSchema },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks/deliveries/{deliveryId}/redeliver',
    summary: 'Sends one delivery again: a new job, fresh attempts (audited)',
    roles: admin,
    params: deliveryParamsSchema,
    success: { status: 202, description: 'The delivery queued again', schema: redeliveredWebhookSchema },
  },
]
