import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestDatabase } from '@/tests/helpers/db'
import { barStates, orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { markBarsBacking } from '@/worker/vault/markBarsBacking'
import { markBarsReserved } from './markBarsReserved'
import { releaseBars } from './releaseBars'

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('markBarsReserved', () => {
  it('a confirmed order reorged back to submitted: backing -> reserved', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db.transaction((tx) => markBarsBacking(tx, { orderIds: [orderId] }))
    expect(await t.db.transaction((tx) => markBarsReserved(tx, { orderId }))).toEqual({ reserved: 2, lost: [] })
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['reserved', 'reserved'])
  })

  it('a failed order running again takes its bars back: available -> reserved, withdrawn -> missing', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db.execute(sql`update vault_bars set status = 'missing' where serial = ${serials[1]}`)
    await t.db.transaction((tx) => releaseBars(tx, { orderId }))
    expect((await barStates(t.db, serials)).map((b) => b.status)).toEqual(['available', 'withdrawn'])
    expect(await t.db.transaction((tx) => markBarsReserved(tx, { orderId }))).toEqual({ reserved: 0, lost: [] })
    expect(await barStates(t.db, serials)).toEqual([
      { serial: serials[0], status: 'reserved', order_id: orderId },
      { serial: serials[1], status: 'missing', order_id: orderId },
    ])
  })
})
