import { eq, inArray, isNull, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '@/db/client'
import * as schema from '@/db/schema'
import { emailDeliveries, notificationEvents, webhookDeliveries } from '@/db/schema'
import {
  emailSendJobKey,
  NOTIFY_JOB_FLAG,
  NOTIFY_JOB_PRIORITY,
  notifyQueueName,
  TASK,
  webhookDeliverJobKey,
} from '@/lib/jobs/jobKeys'
import { NOTIFY_MAX_ATTEMPTS } from '@/lib/notifications/notifyMaxAttempts'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import type { TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { insertUser, type TestUsers } from '@/tests/helpers/users'
import { subscribeTestEndpoint } from '@/tests/notifications/notificationFixtures'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'
import { dispatchNotificationBatch, EMAIL_DIGEST_MAX } from './dispatchNotificationBatch'
import { reopenNotificationEvent } from './reopenNotificationEvent'

// The dispatch: one transaction takes the oldest undispatched events and fans each out (a delivery per
// subscribed endpoint, an email per recipient, a job each).
describe('dispatchNotificationBatch', () => {
  let t: TestDatabase
  let u: TestUsers
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

  const dispatch = (limit: number) =>
    dispatchNotificationBatch(t.db, { limit, email: true, lanes: 2, actor: 'test-worker' })
  const jobsOf = async (task: string) =>
    (
      await t.db.execute<{ n: number }>(sql`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = ${task}`)
    )[0]?.n

  it('takes the oldest undispatched events in batches, one delivery per subscribed endpoint and one email per recipient, and stamps them', async () => {
    const endpoint = await subscribeTestEndpoint(t.db, { url: 'http://127.0.0.1:9/hook', adminId: u.admin.id })
    await subscribeTestEndpoint(t.db, { url: 'http://127.0.0.1:9/other', events: ['mint.failed'], adminId: u.admin.id })
    const confirmed: string[] = []
    for (let i = 0; i < 3; i++) {
      const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
      await t.db.transaction((tx) =>
        markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 1n }] }),
      )
      confirmed.push(order.id)
    }
    expect(await dispatch(2)).toEqual({ events: 2, deliveries: 2, emails: 2 })
    expect(await dispatch(2)).toEqual({ events: 1, deliveries: 1, emails: 1 })
    expect(await dispatch(2)).toEqual({ events: 0, deliveries: 0, emails: 0 })

    expect(await t.db.select().from(notificationEvents).where(isNull(notificationEvents.dispatchedAt))).toHaveLength(0)
    const deliveries = await t.db.select().from(webhookDeliveries)
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpoint.id, endpoint.id, endpoint.id])
    const emails = await t.db.select().from(emailDeliveries)
    expect(emails.map((e) => e.address)).toEqual([u.staff.email, u.staff.email, u.staff.email])
    expect(await jobsOf(TASK.webhookDeliver)).toBe(3)
    // one email job per address and dispatch run: the first run's two events share one (a digest)
    expect(await jobsOf(TASK.emailSend)).toBe(2)

    // a re-opened event (a job queued before the coalescing) is dispatched again: nothing new
    const [first] = await t.db
      .select()
      .from(notificationEvents)
      .where(eq(notificationEvents.orderId, confirmed[0] ?? ''))
    await reopenNotificationEvent(t.db, { eventId: first?.id ?? '' })
    expect(await dispatch(10)).toEqual({ events: 1, deliveries: 0, emails: 0 })
    expect(await jobsOf(TASK.webhookDeliver)).toBe(3)
  })

  it('awaiting approval: every enabled approver and admin but the requester; without email, no email', async () => {
    const approver = await insertUser(t.db, 'approver')
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    await recordMintEvent(t.db, {
      type: 'mint.awaiting_approval',
      orderId: waiting.id,
      status: 'awaiting_approval',
      from: ['awaiting_approval'],
    })
    const byAdmin = await insertOrder(t.db, { requestedBy: u.admin.id, status: 'awaiting_approval' })
    await recordMintEvent(t.db, {
      type: 'mint.awaiting_approval',
      orderId: byAdmin.id,
      status: 'awaiting_approval',
      from: ['awaiting_approval'],
    })
    expect(await dispatch(10)).toEqual({ events: 2, deliveries: 0, emails: 3 })
    const addressesOf = async (orderId: string) => {
      const rows = await t.db
        .select({ address: emailDeliveries.address })
        .from(emailDeliveries)
        .innerJoin(notificationEvents, eq(notificationEvents.id, emailDeliveries.eventId))
        .where(eq(notificationEvents.orderId, orderId))
      return rows.map((r) => r.address).sort()
    }
    expect(await addressesOf(waiting.id)).toEqual([u.admin.email, approver.email].sort())
    expect(await addressesOf(byAdmin.id)).toEqual([approver.email])

    const third = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    await recordMintEvent(t.db, {
      type: 'mint.awaiting_approval',
      orderId: third.id,
      status: 'awaiting_approval',
      from: ['awaiting_approval'],
    })
    expect(await dispatchNotificationBatch(t.db, { limit: 10, email: false, lanes: 2, actor: 'test-worker' })).toEqual({
      events: 1,
      deliveries: 0,
      emails: 0,
    })
  })
})

// Set-based (the fan-out of a batch in a constant number of statements): many events, one
// endpoint and one recipient each, as the worker's own role (mintdesk_worker) dispatches them
describe('dispatchNotificationBatch, a batch of many events', () => {
  let t: TestDatabase
  let u: TestUsers
  let worker: { db: Db; statements: () => number; close: () => Promise<void> }
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))
  beforeAll(async () => {
    worker = countingDb(t.roleUrl('worker'))
    await worker.db.execute(sql`select 1`)
  })
  afterAll(async () => {
    await worker?.close()
  })

  const dispatch = (limit: number) =>
    dispatchNotificationBatch(worker.db, { limit, email: true, lanes: 3, actor: 'test-worker' })
  const confirmOrders = async (n: number) => {
    const orders = await Promise.all(
      Array.from({ length: n }, () => insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, {
        orders: orders.map((o) => ({ orderId: o.id, txHash: `0x${'cd'.repeat(32)}`, blockNumber: 2n })),
      }),
    )
  }
  type Job = {
    key: string
    task: string
    queue: string
    priority: number
    flags: Record<string, boolean>
    max_attempts: number
    payload: Record<string, unknown>
    detail: string | null
  }
  const jobs = async () =>
    t.db.execute<Job>(sql`
      select j.key, k.identifier as task, q.queue_name as queue, j.priority, j.flags, j.max_attempts, j.payload,
             (select e.detail from job_events e where e.job_id = j.id and e.event = 'enqueued') as detail
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks k on k.id = j.task_id
      left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
      where k.identifier in (${TASK.webhookDeliver}, ${TASK.emailSend})`)
  const enqueuedEvents = async () =>
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from job_events where event = 'enqueued' and task in (${TASK.webhookDeliver}, ${TASK.emailSend})`,
      )
    )[0]?.n

  it('one delivery and job per (event, endpoint), one email row per (event, recipient), in the same statements for 3 events as for 40; again, nothing new', async () => {
    const endpoint = await subscribeTestEndpoint(t.db, { url: 'http://127.0.0.1:9/many', adminId: u.admin.id })

    await confirmOrders(3)
    let before = worker.statements()
    expect(await dispatch(100)).toEqual({ events: 3, deliveries: 3, emails: 3 })
    const statementsFor3 = worker.statements() - before
    const firstRun = await t.db.select().from(emailDeliveries)

    await confirmOrders(40)
    before = worker.statements()
    expect(await dispatch(100)).toEqual({ events: 40, deliveries: 40, emails: 40 })
    expect(worker.statements() - before).toBe(statementsFor3)
    // begin, the events, the deliveries, the requesters, the emails, addJobs' three, the stamp, commit
    expect(statementsFor3).toBeLessThanOrEqual(10)

    const deliveries = await t.db.select().from(webhookDeliveries)
    const emails = await t.db.select().from(emailDeliveries)
    expect(deliveries).toHaveLength(43)
    expect(new Set(deliveries.map((d) => d.eventId)).size).toBe(43)
    expect(deliveries.every((d) => d.endpointId === endpoint.id)).toBe(true)
    expect(emails).toHaveLength(43)
    expect(new Set(emails.map((e) => e.eventId)).size).toBe(43)
    expect(emails.every((e) => e.address === u.staff.email)).toBe(true)

    const common = {
      priority: NOTIFY_JOB_PRIORITY,
      flags: { [NOTIFY_JOB_FLAG]: true },
      max_attempts: NOTIFY_MAX_ATTEMPTS,
    }
    const all = await jobs()
    const byKey = new Map(all.map((j) => [j.key, j]))
    expect(byKey.size).toBe(45)
    for (const d of deliveries) {
      expect(byKey.get(webhookDeliverJobKey(d.id))).toEqual({
        ...common,
        key: webhookDeliverJobKey(d.id),
        task: TASK.webhookDeliver,
        queue: notifyQueueName('webhook', endpoint.id, 3),
        payload: { deliveryId: d.id },
        detail: `mint.confirmed to endpoint ${endpoint.id}`,
      })
    }
    // one email job per dispatch run for the one requester, its rows in event order: two digests
    const emailJobs = all.filter((j) => j.task === TASK.emailSend)
    expect(emailJobs).toHaveLength(2)
    const inEventOrder = async (ids: string[]) => {
      const rows = await t.db
        .select({ id: emailDeliveries.id })
        .from(emailDeliveries)
        .innerJoin(notificationEvents, eq(notificationEvents.id, emailDeliveries.eventId))
        .where(inArray(emailDeliveries.id, ids))
        .orderBy(notificationEvents.createdAt, notificationEvents.id)
      return rows.map((r) => r.id)
    }
    const firstIds = await inEventOrder(firstRun.map((e) => e.id))
    const secondIds = await inEventOrder(emails.filter((e) => !firstIds.includes(e.id)).map((e) => e.id))
    for (const ids of [firstIds, secondIds]) {
      expect(byKey.get(emailSendJobKey(ids[0] ?? ''))).toEqual({
        ...common,
        key: emailSendJobKey(ids[0] ?? ''),
        task: TASK.emailSend,
        queue: notifyQueueName('email', u.staff.email, 3),
        payload: { emailIds: ids },
        detail: `${ids.length} events in one email to ${u.staff.email}`,
      })
    }
    expect(await enqueuedEvents()).toBe(45)

    // every event re-opened and dispatched again: no delivery, email or job added
    const eventIds = deliveries.map((d) => d.eventId)
    await t.db.update(notificationEvents).set({ dispatchedAt: null }).where(inArray(notificationEvents.id, eventIds))
    expect(await dispatch(100)).toEqual({ events: 43, deliveries: 0, emails: 0 })
    expect(await t.db.select().from(webhookDeliveries)).toHaveLength(43)
    expect(await t.db.select().from(emailDeliveries)).toHaveLength(43)
    expect((await jobs()).length).toBe(45)
    expect(await enqueuedEvents()).toBe(45)
  })

  it(`more than ${EMAIL_DIGEST_MAX} events to one address in one run: ${EMAIL_DIGEST_MAX} to an email, the rest in the next; a lone event keeps its own email`, async () => {
    const n = EMAIL_DIGEST_MAX + 7
    const earlier = new Set((await jobs()).map((j) => j.key))
    await confirmOrders(n)
    const other = await insertUser(t.db, 'staff')
    const lone = await insertOrder(t.db, { requestedBy: other.id, status: 'submitted' })
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, { orders: [{ orderId: lone.id, txHash: `0x${'ef'.repeat(32)}`, blockNumber: 3n }] }),
    )
    expect(await dispatch(500)).toMatchObject({ events: n + 1, emails: n + 1 })
    const emailJobs = (await jobs()).filter((j) => j.task === TASK.emailSend && !earlier.has(j.key))
    const sizes = emailJobs.map((j) => (j.payload.emailIds as string[]).length).sort((a, b) => b - a)
    expect(sizes).toEqual([EMAIL_DIGEST_MAX, 7, 1])
    const loneJob = emailJobs.find((j) => (j.payload.emailIds as string[]).length === 1)
    expect(loneJob?.queue).toBe(notifyQueueName('email', other.email, 3))
    expect(loneJob?.detail).toBe(`mint.confirmed email to ${other.email}`)
    const covered = emailJobs.flatMap((j) => j.payload.emailIds as string[])
    expect(new Set(covered).size).toBe(n + 1)
  })
})

/**
 * A drizzle database on its own one-connection pool that counts the statements it sends
 * (postgres.js's debug hook: one call per query sent), to show a batch's round trips.
 */
function countingDb(url: string): { db: Db; statements: () => number; close: () => Promise<void> } {
  let n = 0
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: { application_name: 'dispatch-counted' },
    debug: () => n++,
  })
  return { db: drizzle(client, { schema }), statements: () => n, close: () => client.end({ timeout: 5 }) }
}
