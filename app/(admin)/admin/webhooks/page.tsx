import type { Metadata } from 'next'
import { WebhooksAdmin } from '@/components/notifications/WebhooksAdmin'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { listWebhookEndpoints } from '@/lib/web/notifications/listWebhookEndpoints'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Webhooks' }

/**
 * /admin/webhooks: subscribe endpoints (POST /api/admin/webhooks, the secret
 * shown once), list them, their deliveries with each attempt, redeliver, unsubscribe.
 */
export default async function WebhooksPage() {
  await requireAdminReader()
  const { items } = await listWebhookEndpoints(getWebDb().db)
  return <WebhooksAdmin initialEndpoints={items} />
}
