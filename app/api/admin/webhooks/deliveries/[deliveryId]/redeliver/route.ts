// POST /api/admin/webhooks/deliveries/{deliveryId}/redeliver - send
// one delivery again (a new job, fresh attempts); 202; audited (admin)
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { redeliverWebhook } from '@/lib/web/notifications/redeliverWebhook'
import { deliveryParamsSchema } from '@/lib/web/notifications/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: deliveryParamsSchema,
  handler: async ({ user, params }) =>
    json(
      await redeliverWebhook(getWebDb().db, {
        deliveryId: params.deliveryId,
        actor: { id: user.id, email: user.email },
        lanes: getConfig('web').notifications.concurrency,
      }),
      202,
    ),
})
