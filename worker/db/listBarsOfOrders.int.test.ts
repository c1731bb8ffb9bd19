import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestDatabase } from '@/tests/helpers/db'
import { orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { listBarsOfOrders } from './listBarsOfOrders'

// What the check before signing reads of a batch's bars (docs/architecture.md invariant 4):
// each order's own bars (mint_order_bars) AND any bar that says it is held by the order
// without being one of its bars, so checkBeforeSigning can refuse the order ('not_of_order');
// and who holds each bar now, so a bar taken by another order is refused ('other_order').

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('listBarsOfOrders', () => {
  it('gives each order its own bars, a stray bar it holds marked not its own, and a bar of its that another order holds, with that holder', async () => {
    const a = await orderWithListedBars(t.db, { users: u, bars: 2 })
    const b = await orderWithListedBars(t.db, { users: u, bars: 1 })
    const c = await orderWithListedBars(t.db, { users: u, bars: 1 })
    const [aFirst, aSecond] = a.serials
    const [bOnly] = b.serials
    const [cOnly] = c.serials
    // c's bar now says it is held by a (a stray hold); a's second bar now says it is held by b
    await t.db.execute(sql`update vault_bars set order_id = ${a.orderId}::uuid where serial = ${cOnly}`)
    await t.db.execute(sql`update vault_bars set order_id = ${b.orderId}::uuid where serial = ${aSecond}`)

    const bars = await t.db.transaction((tx) => listBarsOfOrders(tx, { orderIds: [a.orderId, b.orderId] }))
    const view = (orderId: string) =>
      (bars.get(orderId) ?? [])
        .map((bar) => ({ serial: bar.serial, ofOrder: bar.ofOrder, holder: bar.holderId, status: bar.status }))
        .sort((x, y) => x.serial.localeCompare(y.serial))
    expect(view(a.orderId)).toEqual(
      [
        { serial: aFirst, ofOrder: true, holder: a.orderId, status: 'reserved' },
        { serial: aSecond, ofOrder: true, holder: b.orderId, status: 'reserved' },
        { serial: cOnly, ofOrder: false, holder: a.orderId, status: 'reserved' },
      ].sort((x, y) => String(x.serial).localeCompare(String(y.serial))),
    )
    // b holds its own bar and a's second one: the second is listed for b as not its own
    expect(view(b.orderId)).toEqual(
      [
        { serial: bOnly, ofOrder: true, holder: b.orderId, status: 'reserved' },
        { serial: aSecond, ofOrder: false, holder: b.orderId, status: 'reserved' },
      ].sort((x, y) => String(x.serial).localeCompare(String(y.serial))),
    )
    expect(await t.db.transaction((tx) => listBarsOfOrders(tx, { orderIds: [] }))).toEqual(new Map())
  })
})
