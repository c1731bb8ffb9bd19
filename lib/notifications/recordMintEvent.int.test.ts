import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { mintOrders, notificationEvents } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { failOrderOfDeadJob } from '@/worker/db/failOrderOfDeadJob'
import { markOrderConfirmed } from '@/worker/db/markOrderConfirmed'
import { markOrderFailed } from '@/worker/db/markOrderFailed'
import { recordMintEvent } from './recordMintEvent'

describe('the outbox of order events (issue 16)', () => {
  let t: TestDatabase
  let u: TestUsers
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

  const eventsOf = (orderId: string) => t.db.select().from(notificationEvents).where(eq(notificationEvents.orderId, orderId))
  const dispatchJobs = async (eventId: string) =>
    (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker._private_jobs where key = ${`${TASK.notifyDispatch}:${eventId}`}`))[0]?.n

  it('a confirmation writes one mint.confirmed event and its dispatch job; confirming again writes none', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
    const hash = `0x${'ab'.repeat(32)}`
    await t.db.transaction((tx) => markOrderConfirmed(tx, { orderId: order.id, txHash: hash, blockNumber: 7n }))
    await t.db.transaction((tx) => markOrderConfirmed(tx, { orderId: order.id, txHash: hash, blockNumber: 7n }))
    const events = await eventsOf(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]?.type).toBe('mint.confirmed')
    expect(events[0]?.payload).toMatchObject({ orderId: order.id, status: 'confirmed', to: order.to, amountWei: order.amountWei.toString(), txHash: hash })
    expect(await dispatchJobs(events[0]?.id ?? '')).toBe(1)
  })

  it('no event when the change rolls back', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
    await expect(
      t.db.transaction(async (tx) => {
        await markOrderConfirmed(tx, { orderId: order.id, txHash: `0x${'cd'.repeat(32)}`, blockNumber: 8n })
        throw new Error('boom before commit')
      }),
    ).rejects.toThrow('boom')
    expect(await eventsOf(order.id)).toHaveLength(0)
    const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id))
    expect(row?.status).toBe('submitted')
  })

  it('a failure writes mint.failed once (failing a failed order again writes none); a dead mint job writes mint.dead_letter', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending' })
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId: order.id, reason: 'reverted' }))
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId: order.id, reason: 'again' }))
    await t.db.transaction((tx) => failOrderOfDeadJob(tx, { task: TASK.mintSend, orderId: order.id, reason: 'gave up after 5 attempts' }))
    const types = (await eventsOf(order.id)).map((e) => e.type).sort()
    expect(types).toEqual(['mint.dead_letter', 'mint.failed'])
    const dead = (await eventsOf(order.id)).find((e) => e.type === 'mint.dead_letter')
    expect(dead?.payload).toMatchObject({ status: 'failed', task: TASK.mintSend, reason: 'gave up after 5 attempts' })
    // not a mint task: nothing
    expect(await t.db.transaction((tx) => failOrderOfDeadJob(tx, { task: TASK.webhookDeliver, orderId: order.id, reason: 'x' }))).toBe(false)
    expect(await eventsOf(order.id)).toHaveLength(2)
  })

  it('the intake hook writes mint.awaiting_approval for an order awaiting approval, and nothing for another', async () => {
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    const pending = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending' })
    await t.db.execute(sql`select public.on_mint_awaiting_approval(${waiting.id}::uuid)`)
    await t.db.execute(sql`select public.on_mint_awaiting_approval(${pending.id}::uuid)`)
    expect((await eventsOf(waiting.id)).map((e) => e.type)).toEqual(['mint.awaiting_approval'])
    expect(await eventsOf(pending.id)).toHaveLength(0)
    expect(await recordMintEvent(t.db, { type: 'mint.confirmed', orderId: pending.id, status: 'confirmed', from: ['submitted'] })).toBeNull()
  })
})
