import { desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { users, webhookDeliveries, webhookEndpoints } from '@/db/schema'
import type { ApiWebhookEndpointList } from './apiTypes'
import type { NotificationEventType } from './eventTypes'

/**
 * The live subscriptions (GET /api/admin/webhooks), newest first,
 * with their deliveries counted by status; never a secret.
 */
export async function listWebhookEndpoints(db: Db): Promise<ApiWebhookEndpointList> {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      events: webhookEndpoints.events,
      createdBy: users.email,
      createdAt: webhookEndpoints.createdAt,
      pending: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'pending')`,
      delivered: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'delivered')`,
      dead: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'dead')`,
    })
    .from(webhookEndpoints)
    .leftJoin(users, eq(users.id, webhookEndpoints.createdBy))
    .where(isNull(webhookEndpoints.deletedAt))
    .orderBy(desc(webhookEndpoints.createdAt))
    .limit(200)
  return {
    items: rows.map((r) => ({
      id: r.id,
      url: r.url,
      events: r.events as NotificationEventType[],
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      counts: { pending: r.pending, delivered: r.delivered, dead: r.dead },
    })),
  }
}
