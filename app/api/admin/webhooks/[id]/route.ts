// DELETE /api/admin/webhooks/{id} - unsubscribe an endpoint (its
// deliveries' history stays); 404 if unknown; audited (admin)
import { route } from '@/lib/web/http/route'
import { deleteWebhookEndpoint } from '@/lib/web/notifications/deleteWebhookEndpoint'
import { webhookParamsSchema } from '@/lib/web/notifications/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const DELETE = route({
  roles: ['admin'],
  params: webhookParamsSchema,
  handler: ({ user, params }) =>
    deleteWebhookEndpoint(getWebDb().db, { id: params.id, actor: { id: user.id, email: user.email } }),
})
