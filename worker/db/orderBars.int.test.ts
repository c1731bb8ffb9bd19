import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import type { TestDatabase } from '@/tests/helpers/db'
import { barStates, orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { failOrderOfDeadJob } from './failOrderOfDeadJob'
import { markOrderFailed } from './markOrderFailed'
import { markOrderSubmitted } from './markOrderSubmitted'
import { markOrdersConfirmed } from './markOrdersConfirmed'

// The worker's order status changes move the order's bars in the same transaction
// (docs/architecture.md invariant 4): failed frees them, confirmed makes them back the tokens,
// in flight again holds them again.

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

/** an order through the intake, approved by the dev approvers: pending, as the worker finds it */
async function approvedOrder(p: { bars?: number } = {}): Promise<{ orderId: string; serials: string[] }> {
  const order = await orderWithListedBars(t.db, { users: u, ...p })
  await approveWithDevKeys(t.db, { orderId: order.orderId })
  return order
}

describe("the worker moves an order's bars with its status", () => {
  it('failed (reverted on chain) frees them; a retry that submits it again holds them again', async () => {
    const { orderId, serials } = await approvedOrder()
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId, reason: 'reverted', code: 'reverted' }))
    expect((await barStates(t.db, serials)).map((b) => [b.status, b.order_id])).toEqual([
      ['available', null],
      ['available', null],
    ])
    await t.db.transaction((tx) => markOrderSubmitted(tx, { orderId }))
    expect((await barStates(t.db, serials)).map((b) => [b.status, b.order_id])).toEqual([
      ['reserved', orderId],
      ['reserved', orderId],
    ])
  })

  it('a dead mint_send fails the order and frees its bars; the same transaction rolled back frees nothing', async () => {
    const { orderId, serials } = await approvedOrder()
    await t.db
      .transaction(async (tx) => {
        await failOrderOfDeadJob(tx, { task: 'mint_send', orderId, reason: 'dead', code: 'job_permanent_failure' })
        throw new Error('rollback')
      })
      .catch(() => {})
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['reserved', 'reserved'])
    await t.db.transaction((tx) =>
      failOrderOfDeadJob(tx, { task: 'mint_send', orderId, reason: 'dead', code: 'job_permanent_failure' }),
    )
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['available', 'available'])
  })

  it('confirmed: its bars back it', async () => {
    const { orderId, serials } = await approvedOrder()
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, { orders: [{ orderId, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 7n }] }),
    )
    expect((await barStates(t.db, serials)).map((b) => [b.status, b.order_id])).toEqual([
      ['backing', orderId],
      ['backing', orderId],
    ])
    const [order] = await t.db.execute<{ status: string }>(
      sql`select status::text as status from mint_orders where id = ${orderId}::uuid`,
    )
    expect(order?.status).toBe('confirmed')
  })

  it('a block of orders confirmed at once: each gets its bars and one notification; a failed one takes its freed bars back; an already confirmed one gets no second event', async () => {
    const submitted = await approvedOrder()
    const failed = await approvedOrder({ bars: 1 })
    const already = await approvedOrder({ bars: 1 })
    const hash = (b: string) => `0x${b.repeat(32)}`
    await t.db.transaction((tx) =>
      markOrderFailed(tx, { orderId: failed.orderId, reason: 'reverted', code: 'reverted' }),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, { orders: [{ orderId: already.orderId, txHash: hash('01'), blockNumber: 5n }] }),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, {
        orders: [
          { orderId: submitted.orderId, txHash: hash('02'), blockNumber: 8n },
          { orderId: failed.orderId, txHash: hash('03'), blockNumber: 8n },
          { orderId: already.orderId, txHash: hash('01'), blockNumber: 5n },
        ],
      }),
    )
    const ids = [submitted.orderId, failed.orderId, already.orderId]
    const orders = await t.db.execute<{ id: string; status: string; tx_hash: string; block_number: string }>(
      sql`select id::text as id, status::text as status, tx_hash, block_number::text as block_number from mint_orders where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    )
    const byId = new Map(orders.map((o) => [o.id, o]))
    expect(ids.map((id) => [byId.get(id)?.status, byId.get(id)?.tx_hash, byId.get(id)?.block_number])).toEqual([
      ['confirmed', hash('02'), '8'],
      ['confirmed', hash('03'), '8'],
      ['confirmed', hash('01'), '5'],
    ])
    for (const o of [submitted, failed, already]) {
      expect((await barStates(t.db, o.serials)).map((b) => [b.status, b.order_id])).toEqual(
        o.serials.map(() => ['backing', o.orderId]),
      )
    }
    const events = await t.db.execute<{ order_id: string; n: number }>(
      sql`select order_id::text as order_id, count(*)::int as n from notification_events where type = 'mint.confirmed' and order_id = any(${`{${ids.join(',')}}`}::uuid[]) group by order_id`,
    )
    expect(new Map(events.map((e) => [e.order_id, e.n]))).toEqual(new Map(ids.map((id) => [id, 1])))
  })
})
