// GET /api/admin/webhooks - the live subscriptions with their delivery counts, never a secret (admin)
// POST /api/admin/webhooks - { url, events }: subscribe an endpoint;
// 201 { id, secret } (the secret is shown once); audited (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { createWebhookEndpoint } from '@/lib/web/notifications/createWebhookEndpoint'
import { listWebhookEndpoints } from '@/lib/web/notifications/listWebhookEndpoints'
import { createWebhookBodySchema } from '@/lib/web/notifications/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => listWebhookEndpoints(getWebDb().db),
})

export const POST = route({
  roles: ['admin'],
  body: createWebhookBodySchema,
  handler: async ({ user, body }) => {
    const config = getConfig('web')
    const created = await createWebhookEndpoint(getWebDb().db, {
      url: body.url,
      events: body.events,
      actor: { id: user.id, email: user.email },
      secretsKey: config.notifications.secretsKey,
      production: config.production,
    })
    return json(created, 201)
  },
})
