import { and, eq } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { notificationEvents, webhookDeliveries } from '@/db/schema'
import { DEV_WEBHOOK_SECRETS_KEY } from '@/lib/notifications/notificationSettings'
import { createWebhookEndpoint } from '@/lib/web/notifications/createWebhookEndpoint'
import type { NotificationEventType } from '@/lib/web/notifications/eventTypes'
import { insertOrder } from '@/tests/helpers/orders'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'

// TEST ONLY: the notification tests' endpoints and events.

export async function subscribeTestEndpoint(
  db: Db,
  p: { url: string; events?: NotificationEventType[]; adminId: string },
): Promise<{ id: string; secret: string }> {
  return createWebhookEndpoint(db, {
    url: p.url,
    events: p.events ?? ['mint.confirmed'],
    actor: { id: p.adminId, email: 'admin@mintdesk.test' },
    secretsKey: Buffer.from(DEV_WEBHOOK_SECRETS_KEY, 'hex'),
    production: false,
  })
}

/**
 * A submitted order confirmed as the worker does it (markOrdersConfirmed): its mint.confirmed event and dispatch job.
 */
export async function confirmTestOrder(
  db: Db,
  p: { requestedBy: string },
): Promise<{ orderId: string; eventId: string }> {
  const order = await insertOrder(db, { requestedBy: p.requestedBy, status: 'submitted' })
  await db.transaction((tx) =>
    markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 1n }] }),
  )
  const [event] = await db.select().from(notificationEvents).where(eq(notificationEvents.orderId, order.id))
  if (!event) throw new Error('no event')
  return { orderId: order.id, eventId: event.id }
}

/** the delivery of one event to one endpoint */
export async function deliveryOf(db: Db, eventId: string, endpointId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)))
  return row
}
