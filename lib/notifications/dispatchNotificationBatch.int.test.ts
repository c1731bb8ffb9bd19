import { eq, isNull, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { emailDeliveries, notificationEvents, webhookDeliveries } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { insertUser, type TestUsers } from '@/tests/helpers/users'
import { subscribeTestEndpoint } from '@/tests/notifications/notificationFixtures'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'
import { dispatchNotificationBatch } from './dispatchNotificationBatch'
import { recordMintEvent } from './recordMintEvent'
import { reopenNotificationEvent } from './reopenNotificationEvent'

// The coalesced dispatch (decision 018 amended, issue 14): one transaction takes the
// oldest undispatched events and fans each out exactly as the per-event dispatch did.
describe('dispatchNotificationBatch', () => {
  let t: TestDatabase
  let u: TestUsers
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

  const dispatch = (limit: number) => dispatchNotificationBatch(t.db, { limit, email: true, lanes: 2, actor: 'test-worker' })
  const jobsOf = async (task: string) =>
    (await t.db.execute<{ n: number }>(sql`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = ${task}`))[0]?.n

  it('takes the oldest undispatched events in batches, one delivery per subscribed endpoint and one email per recipient, and stamps them', async () => {
    const endpoint = await subscribeTestEndpoint(t.db, { url: 'http://127.0.0.1:9/hook', adminId: u.admin.id })
    await subscribeTestEndpoint(t.db, { url: 'http://127.0.0.1:9/other', events: ['mint.failed'], adminId: u.admin.id })
    const confirmed: string[] = []
    for (let i = 0; i < 3; i++) {
      const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
      await t.db.transaction((tx) => markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 1n }] }))
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
    expect(await jobsOf(TASK.emailSend)).toBe(3)

    // a re-opened event (a job queued before the coalescing) is dispatched again: nothing new
    const [first] = await t.db.select().from(notificationEvents).where(eq(notificationEvents.orderId, confirmed[0] ?? ''))
    await reopenNotificationEvent(t.db, { eventId: first?.id ?? '' })
    expect(await dispatch(10)).toEqual({ events: 1, deliveries: 0, emails: 0 })
    expect(await jobsOf(TASK.webhookDeliver)).toBe(3)
  })

  it('awaiting approval: every enabled approver and admin but the requester; without email, no email', async () => {
    const approver = await insertUser(t.db, 'approver')
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    await recordMintEvent(t.db, { type: 'mint.awaiting_approval', orderId: waiting.id, status: 'awaiting_approval', from: ['awaiting_approval'] })
    const byAdmin = await insertOrder(t.db, { requestedBy: u.admin.id, status: 'awaiting_approval' })
    await recordMintEvent(t.db, { type: 'mint.awaiting_approval', orderId: byAdmin.id, status: 'awaiting_approval', from: ['awaiting_approval'] })
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
    await recordMintEvent(t.db, { type: 'mint.awaiting_approval', orderId: third.id, status: 'awaiting_approval', from: ['awaiting_approval'] })
    expect(await dispatchNotificationBatch(t.db, { limit: 10, email: false, lanes: 2, actor: 'test-worker' })).toEqual({ events: 1, deliveries: 0, emails: 0 })
  })
})
