import { asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { notificationEvents, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '@/db/schema'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiWebhookDelivery, ApiWebhookDeliveryList } from './apiTypes'

export type ListWebhookDeliveriesParameters = { endpointId: string; limit?: number }

/**
 * An endpoint's deliveries, newest first, each with its attempts (status, latency, the
 * answer's first bytes): GET /api/admin/webhooks/{id}/deliveries. A deleted endpoint's
 * history is still readable; an unknown id is a 404.
 */
export async function listWebhookDeliveries(
  db: Db,
  p: ListWebhookDeliveriesParameters,
): Promise<ApiWebhookDeliveryList> {
  if (!isUuid(p.endpointId)) throw new NotFoundError({ what: 'Webhook' })
  const endpointId = p.endpointId.toLowerCase()
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId))
  if (!endpoint) throw new NotFoundError({ what: 'Webhook' })
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: notificationEvents.type, orderId: notificationEvents.orderId })
    .from(webhookDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(
      // nulls last as webhook_deliveries_endpoint_idx is: a plain desc (nulls first) would sort all its deliveries
      sql`${webhookDeliveries.createdAt} desc nulls last`,
      desc(webhookDeliveries.id),
    )
    .limit(Math.min(p.limit ?? 100, 500))
  const ids = rows.map((r) => r.delivery.id)
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(webhookDeliveryAttempts)
          .where(inArray(webhookDeliveryAttempts.deliveryId, ids))
          .orderBy(asc(webhookDeliveryAttempts.id))
  return {
    items: rows.map(({ delivery: d, eventType, orderId }) => ({
      id: d.id,
      eventId: `evt_${d.eventId}`,
      eventType,
      orderId,
      status: d.status as ApiWebhookDelivery['status'],
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
      attemptLog: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({
          attempt: a.attempt,
          startedAt: a.startedAt.toISOString(),
          durationMs: a.durationMs,
          statusCode: a.statusCode,
          ok: a.ok,
          error: a.error,
          responseExcerpt: a.responseExcerpt,
        })),
    })),
  }
}
