import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { webhookEndpoints } from '@/db/schema'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiDeletedWebhook } from './apiTypes'

export type DeleteWebhookEndpointParameters = { id: string; actor: AdminActor }

/**
 * Unsubscribes an endpoint (DELETE /api/admin/webhooks/{id}): it gets no new delivery, and
 * a pending one is cancelled at its next attempt. The row stays (deleted_at) so its
 * deliveries keep their history. Unknown or already deleted: 404. Audited.
 */
export async function deleteWebhookEndpoint(db: Db, p: DeleteWebhookEndpointParameters): Promise<ApiDeletedWebhook> {
  if (!isUuid(p.id)) throw new NotFoundError({ what: 'Webhook' })
  const id = p.id.toLowerCase()
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookEndpoints)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
      .returning({ url: webhookEndpoints.url })
    if (rows.length === 0) throw new NotFoundError({ what: 'Webhook' })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'webhook.delete',
      targetType: 'webhook',
      targetId: id,
      detail: { url: rows[0]?.url },
    })
  })
  return { id, deleted: true }
}
