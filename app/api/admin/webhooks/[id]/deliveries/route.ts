// GET /api/admin/webhooks/{id}/deliveries - the endpoint's deliveries, newest first, each with its attempts (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { listWebhookDeliveries } from '@/lib/web/notifications/listWebhookDeliveries'
import { webhookParamsSchema } from '@/lib/web/notifications/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  params: webhookParamsSchema,
  handler: ({ params }) => listWebhookDeliveries(getWebDb().db, { endpointId: params.id }),
})
