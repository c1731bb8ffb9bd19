import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestUsers } from '@/tests/helpers/users'
import { barStates, orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import type { TestDatabase } from '@/tests/helpers/db'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { failOrderOfDeadJob } from './failOrderOfDeadJob'
import { markOrderConfirmed } from './markOrderConfirmed'
import { markOrderFailed } from './markOrderFailed'
import { markOrderSubmitted } from './markOrderSubmitted'

// The worker's order status changes move the order's bars in the same transaction
// (ARCHITECTURE.md invariant 4): failed frees them, confirmed makes them back the tokens,
// in flight again holds them again.

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('the worker moves an order\'s bars with its status', () => {
  it('failed (reverted on chain) frees them; a retry that submits it again holds them again', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId, reason: 'reverted' }))
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
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db
      .transaction(async (tx) => {
        await failOrderOfDeadJob(tx, { task: 'mint_send', orderId, reason: 'dead' })
        throw new Error('rollback')
      })
      .catch(() => {})
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['reserved', 'reserved'])
    await t.db.transaction((tx) => failOrderOfDeadJob(tx, { task: 'mint_send', orderId, reason: 'dead' }))
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['available', 'available'])
  })

  it('confirmed: its bars back it', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db.transaction((tx) => markOrderConfirmed(tx, { orderId, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 7n }))
    expect((await barStates(t.db, serials)).map((b) => [b.status, b.order_id])).toEqual([
      ['backing', orderId],
      ['backing', orderId],
    ])
    const [order] = await t.db.execute<{ status: string }>(sql`select status::text as status from mint_orders where id = ${orderId}::uuid`)
    expect(order?.status).toBe('confirmed')
  })
})
