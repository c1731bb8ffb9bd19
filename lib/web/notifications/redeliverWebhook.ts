import { eq, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { webhookDeliveries, webhookEndpoints } from '@/db/schema'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { addJob } from '@/lib/jobs/addJob'
import { NOTIFY_JOB_FLAG, NOTIFY_JOB_PRIORITY, notifyQueueName, TASK, webhookDeliverJobKey } from '@/lib/jobs/jobKeys'
import type { WebhookDeliverPayload } from '@/lib/jobs/payloadTypes'
import { isUuid } from '@/lib/mint/isUuid'
import { NOTIFY_MAX_ATTEMPTS } from '@/lib/notifications/notifyMaxAttempts'
import { ConflictError, NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRedeliveredWebhook } from './apiTypes'

export type RedeliverWebhookParameters = {
  deliveryId: string
  actor: AdminActor
  /** NOTIFY_CONCURRENCY: the lanes (the same lane as the dispatcher chose) */
  lanes: number
}

/**
 * Sends one delivery again (POST /api/admin/webhooks/deliveries/{id}/redeliver): the
 * delivery becomes `pending` (whatever it was: delivered, dead) and gets a new
 * webhook_deliver job with fresh attempts, in one transaction with its audit row. The
 * event keeps its id, so a receiver that already has it can tell. A claim still held by a
 * running attempt is left alone (the new job waits for it). An endpoint deleted since: 409.
 */
export async function redeliverWebhook(db: Db, p: RedeliverWebhookParameters): Promise<ApiRedeliveredWebhook> {
  if (!isUuid(p.deliveryId)) throw new NotFoundError({ what: 'Delivery' })
  const deliveryId = p.deliveryId.toLowerCase()
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        endpointId: webhookDeliveries.endpointId,
        status: webhookDeliveries.status,
        deletedAt: webhookEndpoints.deletedAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .for('update', { of: webhookDeliveries })
    if (!row) throw new NotFoundError({ what: 'Delivery' })
    if (row.deletedAt) throw new ConflictError('The endpoint of this delivery was deleted.')
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', updatedAt: sql`now()` })
      .where(eq(webhookDeliveries.id, deliveryId))
    const { jobId } = await addJob(tx, {
      task: TASK.webhookDeliver,
      payload: { deliveryId } satisfies WebhookDeliverPayload,
      jobKey: webhookDeliverJobKey(deliveryId),
      queueName: notifyQueueName('webhook', row.endpointId, p.lanes),
      maxAttempts: NOTIFY_MAX_ATTEMPTS,
      priority: NOTIFY_JOB_PRIORITY,
      flags: [NOTIFY_JOB_FLAG],
      actor: p.actor.email,
      detail: `redelivery by ${p.actor.email} (was ${row.status})`,
    })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'webhook.redeliver',
      targetType: 'webhook_delivery',
      targetId: deliveryId,
      detail: { was: row.status, jobId: jobId.toString() },
    })
    return { deliveryId, jobId: jobId.toString() }
  })
}
