import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import { emailDeliveries, mintOrders, notificationEvents, users, webhookDeliveries, webhookEndpoints } from '@/db/schema'
import { addJob } from '@/lib/jobs/addJob'
import { NOTIFY_MAX_ATTEMPTS } from './notifyMaxAttempts'
import { emailSendJobKey, NOTIFY_JOB_FLAG, NOTIFY_JOB_PRIORITY, notifyQueueName, TASK, webhookDeliverJobKey } from '@/lib/jobs/jobKeys'

export type DispatchNotificationBatchParameters = {
  /** the most events taken by this transaction (NOTIFY_DISPATCH_BATCH) */
  limit: number
  /** whether this worker can send email (SMTP_URL set): without it no email is planned */
  email: boolean
  /** NOTIFY_CONCURRENCY: the lanes deliveries and emails are spread over (lib/jobs/jobKeys notifyQueueName) */
  lanes: number
  actor: string
}

export type DispatchNotificationBatchReturnType = { events: number; deliveries: number; emails: number }

type BatchEvent = { id: string; type: string; requestedBy: string }

/** how many undispatched events one transaction of notify_dispatch takes */
export const NOTIFY_DISPATCH_BATCH = 500

/**
 * Fans out up to `limit` undispatched events, oldest first, in ONE transaction (decision
 * 018, amended for issue 14): the events are taken FOR UPDATE SKIP LOCKED (two dispatch
 * runs at once split the work) and stamped dispatched_at. Each becomes, as before, a
 * webhook_deliveries row and its webhook_deliver job for each live endpoint subscribed to
 * its type, and an email_deliveries row and its email_send job for each recipient (the
 * requester on confirmed or failed; every approver and admin but the requester on awaiting
 * approval). The rows are unique per (event, endpoint) and (event, address) and only a new
 * row gets a job, so an event dispatched twice (a re-opened one) adds nothing. Every job
 * carries the 'notify' flag, priority 10 (mint jobs first) and a lane (queue) of
 * NOTIFY_CONCURRENCY: a dead endpoint holds one lane, never the mints' slots.
 */
export async function dispatchNotificationBatch(db: Db, p: DispatchNotificationBatchParameters): Promise<DispatchNotificationBatchReturnType> {
  return db.transaction(async (tx) => {
    const events: BatchEvent[] = await tx
      .select({ id: notificationEvents.id, type: notificationEvents.type, requestedBy: mintOrders.requestedBy })
      .from(notificationEvents)
      .innerJoin(mintOrders, eq(mintOrders.id, notificationEvents.orderId))
      .where(isNull(notificationEvents.dispatchedAt))
      .orderBy(asc(notificationEvents.createdAt), asc(notificationEvents.id))
      .limit(p.limit)
      .for('update', { of: notificationEvents, skipLocked: true })
    if (events.length === 0) return { events: 0, deliveries: 0, emails: 0 }

    const common = { maxAttempts: NOTIFY_MAX_ATTEMPTS, priority: NOTIFY_JOB_PRIORITY, flags: [NOTIFY_JOB_FLAG], actor: p.actor }
    const endpoints = await tx.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(isNull(webhookEndpoints.deletedAt))
    const recipientsOf = p.email ? await loadRecipients(tx, events) : () => []

    let deliveries = 0
    let emails = 0
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!endpoint.events.includes(event.type)) continue
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
      for (const address of recipientsOf(event)) {
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
    }
    await tx
      .update(notificationEvents)
      .set({ dispatchedAt: new Date() })
      .where(inArray(notificationEvents.id, events.map((e) => e.id)))
    return { events: events.length, deliveries, emails }
  })
}

/**
 * Who is emailed about each event of the batch (two reads for the whole batch): enabled
 * users only, each address once.
 */
async function loadRecipients(tx: Tx, events: BatchEvent[]): Promise<(event: BatchEvent) => string[]> {
  const requesterIds = [...new Set(events.filter((e) => e.type === 'mint.confirmed' || e.type === 'mint.failed').map((e) => e.requestedBy))]
  const requesters = requesterIds.length === 0 ? [] : await tx.select({ id: users.id, email: users.email }).from(users).where(and(inArray(users.id, requesterIds), eq(users.disabled, false)))
  const emailOf = new Map(requesters.map((r) => [r.id, r.email]))
  const approvers = events.some((e) => e.type === 'mint.awaiting_approval')
    ? await tx.select({ id: users.id, email: users.email }).from(users).where(and(inArray(users.role, ['approver', 'admin']), eq(users.disabled, false)))
    : []
  return (event) => {
    if (event.type === 'mint.confirmed' || event.type === 'mint.failed') {
      const email = emailOf.get(event.requestedBy)
      return email === undefined ? [] : [email]
    }
    if (event.type === 'mint.awaiting_approval') return [...new Set(approvers.filter((a) => a.id !== event.requestedBy).map((a) => a.email))]
    return []
  }
}
