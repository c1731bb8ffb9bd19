import { randomUUID } from 'node:crypto'
import type { Db } from '@/db/client'
import { webhookEndpoints } from '@/db/schema'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { WebhooksNotConfiguredError } from '@/lib/errors/notifications'
import { isUuid } from '@/lib/mint/isUuid'
import type { ResolveHost } from '@/lib/notifications/resolveSafeAddresses'
import type { ApiCreatedWebhook } from './apiTypes'
import { checkWebhookTarget } from './checkWebhookTarget'
import type { NotificationEventType } from './eventTypes'
import { newWebhookSecret } from './newWebhookSecret'
import { sealSecret } from './sealSecret'

export type CreateWebhookEndpointParameters = {
  url: string
  /** known events only (the route's schema refused the others) */
  events: NotificationEventType[]
  actor: AdminActor
  /** WEBHOOK_SECRETS_KEY; undefined (production without it): refused, 503 */
  secretsKey: Buffer | undefined
  production: boolean
  /** TEST ONLY: the resolver of the SSRF guard */
  resolve?: ResolveHost
}

/**
 * Subscribes an endpoint (POST /api/admin/webhooks). The target is checked first
 * (checkWebhookTarget: https and a public address in production, after DNS): a refusal
 * writes nothing. The signing secret (newWebhookSecret) is sealed for storage
 * (sealSecret) and returned here only: it is never shown again. Audited.
 */
export async function createWebhookEndpoint(db: Db, p: CreateWebhookEndpointParameters): Promise<ApiCreatedWebhook> {
  if (!p.secretsKey) throw new WebhooksNotConfiguredError()
  const url = await checkWebhookTarget({ url: p.url, production: p.production, resolve: p.resolve })
  const id = randomUUID()
  const secret = newWebhookSecret()
  const secretCiphertext = sealSecret({ key: p.secretsKey, secret, endpointId: id })
  await db.transaction(async (tx) => {
    await tx
      .insert(webhookEndpoints)
      .values({ id, url, events: p.events, secretCiphertext, createdBy: isUuid(p.actor.id) ? p.actor.id : null })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'webhook.subscribe',
      targetType: 'webhook',
      targetId: id,
      detail: { url, events: p.events },
    })
  })
  return { id, secret, url, events: p.events }
}
