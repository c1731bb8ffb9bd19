import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import {
  complianceOperations,
  emailDeliveries,
  mintOrders,
  notificationEvents,
  redemptions,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from '@/db/schema'
import type { AddJobParameters } from '@/lib/jobs/addJob'
import { addJobs } from '@/lib/jobs/addJobs'
import {
  emailSendJobKey,
  NOTIFY_JOB_FLAG,
  NOTIFY_JOB_PRIORITY,
  notifyQueueName,
  TASK,
  webhookDeliverJobKey,
} from '@/lib/jobs/jobKeys'
import type { WebhookDeliverPayload } from '@/lib/jobs/payloadTypes'
import { NOTIFY_MAX_ATTEMPTS } from '@/lib/notifications/notifyMaxAttempts'
import type { EmailSendPayload } from '@/worker/tasks/emailSend'

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

/** an undispatched event, with the user who asked for its subject (none: a deposit's event) */
type BatchEvent = { id: string; type: string; requestedBy: string | null }
type NewDelivery = { id: string; eventId: string; endpointId: string }
type NewEmail = { id: string; eventId: string; address: string }

/** the events emailed to whoever asked for their subject: its outcome */
const TO_REQUESTER: ReadonlySet<string> = new Set([
  'mint.confirmed',
  'mint.failed',
  'redemption.burned',
  'redemption.failed',
  'compliance.applied',
  'compliance.failed',
])

/** the events emailed to every approver and admin but the requester: a second person's signature is asked */
const TO_APPROVERS: ReadonlySet<string> = new Set([
  'mint.awaiting_approval',
  'redemption.awaiting_approval',
  'compliance.awaiting_approval',
])

/** how many undispatched events one transaction of notify_dispatch takes */
export const NOTIFY_DISPATCH_BATCH = 500

/** the most events one email carries (a digest): more to one address make more emails */
export const EMAIL_DIGEST_MAX = 50

/**
 * Fans out up to `limit` undispatched events, oldest first, in ONE transaction
 * (docs/decisions/033-notifications.md): the events are taken FOR UPDATE SKIP LOCKED (two
 * dispatch runs at once split the work) and stamped dispatched_at. Each becomes a
 * webhook_deliveries row and its webhook_deliver job for each live endpoint subscribed to
 * its type, and an email_deliveries row for each recipient (TO_REQUESTER: the requester of
 * an order, redemption or compliance operation on its outcome; TO_APPROVERS: every approver
 * and admin but the requester when a signature is asked). The batch's
 * new email rows of one address share email_send jobs, up to EMAIL_DIGEST_MAX rows each:
 * one message per job, a digest when it carries several events. The rows
 * are unique per (event, endpoint) and (event, address) and only new rows get a job, so an
 * event dispatched twice (a re-opened one) adds nothing. Every job
 * carries the 'notify' flag, priority 10 (mint jobs first) and a lane (queue) of
 * NOTIFY_CONCURRENCY: a dead endpoint holds one lane, never the mints' slots.
 * Set-based: the whole batch costs the same few statements however many events it takes
 * (the events, one insert of all its webhook deliveries, the recipients' reads, one insert
 * of all its emails, addJobs' three for all the new rows' jobs, the stamp), not a round
 * trip per row.
 */
export async function dispatchNotificationBatch(
  db: Db,
  p: DispatchNotificationBatchParameters,
): Promise<DispatchNotificationBatchReturnType> {
  return db.transaction(async (tx) => {
    const events: BatchEvent[] = await tx
      .select({
        id: notificationEvents.id,
        type: notificationEvents.type,
        requestedBy: sql<
          string | null
        >`coalesce(${mintOrders.requestedBy}, ${redemptions.requestedBy}, ${complianceOperations.requestedBy})`,
      })
      .from(notificationEvents)
      .leftJoin(mintOrders, eq(mintOrders.id, notificationEvents.orderId))
      .leftJoin(redemptions, eq(redemptions.id, notificationEvents.redemptionId))
      .leftJoin(complianceOperations, eq(complianceOperations.id, notificationEvents.complianceOperationId))
      .where(isNull(notificationEvents.dispatchedAt))
      .orderBy(asc(notificationEvents.createdAt), asc(notificationEvents.id))
      .limit(p.limit)
      .for('update', { of: notificationEvents, skipLocked: true })
    if (events.length === 0) return { events: 0, deliveries: 0, emails: 0 }

    const common = {
      maxAttempts: NOTIFY_MAX_ATTEMPTS,
      priority: NOTIFY_JOB_PRIORITY,
      flags: [NOTIFY_JOB_FLAG],
      actor: p.actor,
    }
    const newDeliveries = groupByEvent(await insertWebhookDeliveries(tx, events))
    const newEmails = groupByEvent(
      p.email ? await insertEmailDeliveries(tx, { events, recipientsOf: await listRecipients(tx, events) }) : [],
    )

    // the deliveries' jobs, events oldest first (a lane runs its jobs in that order), then
    // the emails' jobs: each address's rows in event order, EMAIL_DIGEST_MAX to a message
    const jobs: AddJobParameters[] = []
    const typeOf = new Map(events.map((e) => [e.id, e.type]))
    for (const event of events) {
      for (const row of newDeliveries.get(event.id) ?? []) {
        jobs.push({
          ...common,
          task: TASK.webhookDeliver,
          payload: { deliveryId: row.id } satisfies WebhookDeliverPayload,
          jobKey: webhookDeliverJobKey(row.id),
          queueName: notifyQueueName('webhook', row.endpointId, p.lanes),
          detail: `${event.type} to endpoint ${row.endpointId}`,
        })
      }
    }
    for (const [address, rows] of groupByAddress(events, newEmails)) {
      for (let i = 0; i < rows.length; i += EMAIL_DIGEST_MAX) {
        const chunk = rows.slice(i, i + EMAIL_DIGEST_MAX)
        const [first] = chunk
        if (!first) continue
        jobs.push({
          ...common,
          task: TASK.emailSend,
          payload: { emailIds: chunk.map((r) => r.id) } satisfies EmailSendPayload,
          // the first row's key: each row is in exactly one job, so no two jobs share it
          jobKey: emailSendJobKey(first.id),
          queueName: notifyQueueName('email', address, p.lanes),
          detail:
            chunk.length === 1
              ? `${typeOf.get(first.eventId) ?? 'event'} email to ${address}`
              : `${chunk.length} events in one email to ${address}`,
        })
      }
    }
    await addJobs(tx, jobs)
    await tx
      .update(notificationEvents)
      .set({ dispatchedAt: new Date() })
      .where(
        inArray(
          notificationEvents.id,
          events.map((e) => e.id),
        ),
      )
    return { events: events.length, deliveries: countRows(newDeliveries), emails: countRows(newEmails) }
  })
}

/**
 * Who is emailed about each event of the batch (two reads for the whole batch): enabled
 * users only, each address once.
 */
async function listRecipients(tx: Tx, events: BatchEvent[]): Promise<(event: BatchEvent) => string[]> {
  const requesterIds = [
    ...new Set(events.flatMap((e) => (TO_REQUESTER.has(e.type) && e.requestedBy ? [e.requestedBy] : []))),
  ]
  const requesters =
    requesterIds.length === 0
      ? []
      : await tx
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(inArray(users.id, requesterIds), eq(users.disabled, false)))
  const emailOf = new Map(requesters.map((r) => [r.id, r.email]))
  const approvers = events.some((e) => TO_APPROVERS.has(e.type))
    ? await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(inArray(users.role, ['approver', 'admin']), eq(users.disabled, false)))
    : []
  return (event) => {
    if (TO_REQUESTER.has(event.type)) {
      const email = event.requestedBy ? emailOf.get(event.requestedBy) : undefined
      return email === undefined ? [] : [email]
    }
    if (TO_APPROVERS.has(event.type))
      return [...new Set(approvers.filter((a) => a.id !== event.requestedBy).map((a) => a.email))]
    return []
  }
}

/**
 * The webhook_deliveries rows of the batch in one statement: a row for each (event, live
 * endpoint subscribed to its type). Only the rows inserted come back: a pair already
 * delivered (a re-opened event) conflicts and gets no second job.
 */
async function insertWebhookDeliveries(tx: Tx, events: readonly BatchEvent[]): Promise<NewDelivery[]> {
  const rows = await tx.execute<{ id: string; event_id: string; endpoint_id: string }>(sql`
    insert into ${webhookDeliveries} (event_id, endpoint_id)
    select (e.event->>'id')::uuid, w.id
    from jsonb_array_elements(${JSON.stringify(events.map((e) => ({ id: e.id, type: e.type })))}::jsonb) with ordinality as e(event, ord)
    join ${webhookEndpoints} w on w.deleted_at is null and (e.event->>'type') = any(w.events)
    order by e.ord, w.created_at, w.id
    on conflict do nothing
    returning id::text as id, event_id::text as event_id, endpoint_id::text as endpoint_id`)
  return rows.map((r) => ({ id: r.id, eventId: r.event_id, endpointId: r.endpoint_id }))
}

/**
 * The email_deliveries rows of the batch in one statement: a row for each (event,
 * recipient address); only the rows inserted come back, as for webhooks.
 */
async function insertEmailDeliveries(
  tx: Tx,
  p: { events: readonly BatchEvent[]; recipientsOf: (event: BatchEvent) => string[] },
): Promise<NewEmail[]> {
  const pairs = p.events.flatMap((event) => p.recipientsOf(event).map((address) => ({ eventId: event.id, address })))
  if (pairs.length === 0) return []
  return tx
    .insert(emailDeliveries)
    .values(pairs)
    .onConflictDoNothing()
    .returning({ id: emailDeliveries.id, eventId: emailDeliveries.eventId, address: emailDeliveries.address })
}

function groupByEvent<R extends { eventId: string }>(rows: readonly R[]): Map<string, R[]> {
  const byEvent = new Map<string, R[]>()
  for (const row of rows) byEvent.set(row.eventId, [...(byEvent.get(row.eventId) ?? []), row])
  return byEvent
}

/** the new email rows by address (addresses in the order of their first event), each address's rows in event order */
function groupByAddress(
  events: readonly BatchEvent[],
  byEvent: ReadonlyMap<string, readonly NewEmail[]>,
): Map<string, NewEmail[]> {
  const byAddress = new Map<string, NewEmail[]>()
  for (const event of events) {
    for (const row of byEvent.get(event.id) ?? []) {
      const rows = byAddress.get(row.address)
      if (rows) rows.push(row)
      else byAddress.set(row.address, [row])
    }
  }
  return byAddress
}

function countRows(byEvent: ReadonlyMap<string, readonly unknown[]>): number {
  let n = 0
  for (const rows of byEvent.values()) n += rows.length
  return n
}
