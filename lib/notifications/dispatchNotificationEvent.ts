import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import { emailDeliveries, mintOrders, notificationEvents, users, webhookDeliveries, webhookEndpoints } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { addJob } from '@/lib/jobs/addJob'
import { NOTIFY_MAX_ATTEMPTS } from './notifyMaxAttempts'
import { emailSendJobKey, NOTIFY_JOB_FLAG, NOTIFY_JOB_PRIORITY, notifyQueueName, TASK, webhookDeliverJobKey } from '@/lib/jobs/jobKeys'


export type DispatchNotificationEventParameters = {
  eventId: string
  /** whether this worker can send email (SMTP_URL set): without it no email is planned */
  email: boolean
  /** NOTIFY_CONCURRENCY: the lanes deliveries and emails are spread over (lib/jobs/jobKeys notifyQueueName) */
  lanes: number
  actor: string
}

export type DispatchNotificationEventReturnType = { deliveries: number; emails: number }

/**
 * Fans one event out, in ONE transaction: a webhook_deliveries row and its webhook_deliver
 * job for each live endpoint subscribed to the event's type, an email_deliveries row and
 * its email_send job for each recipient (the requester on confirmed or failed; every
 * approver and admin but the requester on awaiting approval). Run twice, it adds nothing:
 * the rows are unique per (event, endpoint) and (event, address), and only a new row gets
 * a job. Every job carries the 'notify' flag, priority 10 (mint jobs first) and a lane
 * (queue) of NOTIFY_CONCURRENCY: a dead endpoint holds one lane, never the mints' slots.
 */
export async function dispatchNotificationEvent(db: Db, p: DispatchNotificationEventParameters): Promise<DispatchNotificationEventReturnType> {
  return db.transaction(async (tx) => {
    const [event] = await tx.select().from(notificationEvents).where(eq(notificationEvents.id, p.eventId))
    if (!event) throw new PermanentJobError(`notification event ${p.eventId} does not exist`)
    const common = { maxAttempts: NOTIFY_MAX_ATTEMPTS, priority: NOTIFY_JOB_PRIORITY, flags: [NOTIFY_JOB_FLAG], actor: p.actor }

    let deliveries = 0
    const endpoints = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(isNull(webhookEndpoints.deletedAt), sql`${event.type} = any(${webhookEndpoints.events})`))
    for (const endpoint of endpoints) {
      const [row] = await tx.insert(webhookDeliveries).values({ eventId: event.id, endpointId: endpoint.id }).onConflictDoNothing().returning({ id: webhookDeliveries.id })
      if (!row) continue
      await addJob(tx, {
        ...common,
        task: TASK.webhookDeliver,
        payload: { deliveryId: row.id },
        jobKey: webhookDeliverJobKey(row.id),
        queueName: notifyQueueName('webhook', endpoint.id, p.lanes),
        detail: `${event.type} to endpoint ${endpoint.id}`,
      })
      deliveries++
    }

    let emails = 0
    for (const address of p.email ? await recipientsOf(tx, event) : []) {
      const [row] = await tx.insert(emailDeliveries).values({ eventId: event.id, address }).onConflictDoNothing().returning({ id: emailDeliveries.id })
      if (!row) continue
      await addJob(tx, {
        ...common,
        task: TASK.emailSend,
        payload: { emailId: row.id },
        jobKey: emailSendJobKey(row.id),
        queueName: notifyQueueName('email', address, p.lanes),
        detail: `${event.type} email to ${address}`,
      })
      emails++
    }
    return { deliveries, emails }
  })
}

/** Who is emailed about an event: enabled users only, each address once. */
async function recipientsOf(tx: Tx, event: { type: string; orderId: string }): Promise<string[]> {
  const [order] = await tx.select({ requestedBy: mintOrders.requestedBy }).from(mintOrders).where(eq(mintOrders.id, event.orderId))
  if (!order) return []
  if (event.type === 'mint.confirmed' || event.type === 'mint.failed') {
    const rows = await tx.select({ email: users.email }).from(users).where(and(eq(users.id, order.requestedBy), eq(users.disabled, false)))
    return rows.map((r) => r.email)
  }
  if (event.type === 'mint.awaiting_approval') {
    const rows = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(inArray(users.role, ['approver', 'admin']), eq(users.disabled, false), ne(users.id, order.requestedBy)))
    return [...new Set(rows.map((r) => r.email))]
  }
  return []
}
