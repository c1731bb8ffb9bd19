import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { webhookEndpoints } from '@/db/schema'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { WebhooksNotConfiguredError } from '@/lib/errors/notifications'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRotatedWebhookSecret } from './apiTypes'
import { newWebhookSecret } from './newWebhookSecret'
import { sealSecret } from './sealSecret'

/** How long the secret before a rotation keeps signing deliveries beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

export type RotateWebhookSecretParameters = {
  id: string
  actor: AdminActor
  /** WEBHOOK_SECRETS_KEY; undefined (production without it): refused, 503 */
  secretsKey: Buffer | undefined
}

/**
 * Gives an endpoint a new signing secret (POST /api/admin/webhooks/{id}/rotate-secret),
 * shown once here. The secret it replaces keeps signing for 24 hours: every delivery
 * meanwhile carries both signatures (space-separated in `webhook-signature`), so the
 * receiver can switch at its own pace. A second rotation within the overlap drops the
 * oldest. Unknown or deleted endpoint: 404. Audited.
 */
export async function rotateWebhookSecret(db: Db, p: RotateWebhookSecretParameters): Promise<ApiRotatedWebhookSecret> {
  if (!p.secretsKey) throw new WebhooksNotConfiguredError()
  if (!isUuid(p.id)) throw new NotFoundError({ what: 'Webhook' })
  const id = p.id.toLowerCase()
  const secret = newWebhookSecret()
  const sealed = sealSecret({ key: p.secretsKey, secret, endpointId: id })
  const expiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS)
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookEndpoints)
      .set({
        previousSecretCiphertext: sql`${webhookEndpoints.secretCiphertext}`,
        previousSecretExpiresAt: expiresAt,
        secretCiphertext: sealed,
      })
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
      .returning({ url: webhookEndpoints.url })
    if (rows.length === 0) throw new NotFoundError({ what: 'Webhook' })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'webhook.rotate_secret',
      targetType: 'webhook',
      targetId: id,
      detail: { url: rows[0]?.url, previousSecretExpiresAt: expiresAt.toISOString() },
    })
  })
  return { id, secret, previousSecretExpiresAt: expiresAt.toISOString() }
}
