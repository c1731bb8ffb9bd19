// POST /api/admin/webhooks/{id}/rotate-secret - a new signing secret, shown once; the one it replaces keeps
// signing beside it for 24 h (two signatures in webhook-signature); 404 if unknown; audited (admin)
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { rotateWebhookSecret } from '@/lib/web/notifications/rotateWebhookSecret'
import { webhookParamsSchema } from '@/lib/web/notifications/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: webhookParamsSchema,
  handler: ({ user, params }) =>
    rotateWebhookSecret(getWebDb().db, {
      id: params.id,
      actor: { id: user.id, email: user.email },
      secretsKey: getConfig('web').notifications.secretsKey,
    }),
})
