import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { releaseBars } from '@/lib/vault/releaseBars'
import type { TestDatabase } from '@/tests/helpers/db'
import { barStates, orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { markBarsBacking } from './markBarsBacking'

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('markBarsBacking', () => {
  it("the confirmed order's reserved bars back it; a missing one stays missing", async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u })
    await t.db.execute(sql`update vault_bars set status = 'missing' where serial = ${serials[1]}`)
    expect(await t.db.transaction((tx) => markBarsBacking(tx, { orderIds: [orderId] }))).toEqual({
      backing: 1,
      lost: [],
    })
    expect(await barStates(t.db, serials)).toEqual([
      { serial: serials[0], status: 'backing', order_id: orderId },
      { serial: serials[1], status: 'missing', order_id: orderId },
    ])
  })

  it('the chain wins: a freed order confirmed after all takes its free bars back, and names those another order took', async () => {
    const first = await orderWithListedBars(t.db, { users: u })
    await t.db.transaction((tx) => releaseBars(tx, { orderId: first.orderId }))
    // meanwhile another order took the second bar
    const other = '00000000-0000-4000-8000-000000000001'
    await t.db.execute(sql`insert into mint_orders (id, to_address, amount_wei, vault, receipt_ref, document_sha256, requested_by)
      values (${other}::uuid, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 1, 'MOV-1', 'x', ${'0'.repeat(64)}, ${u.staff.id}::uuid)`)
    await t.db.execute(
      sql`update vault_bars set status = 'reserved', order_id = ${other}::uuid where serial = ${first.serials[1]}`,
    )

    const result = await t.db.transaction((tx) => markBarsBacking(tx, { orderIds: [first.orderId] }))
    expect(result).toEqual({
      backing: 1,
      lost: [{ orderId: first.orderId, serial: first.serials[1], refiner: 'Valcambi SA', heldBy: other }],
    })
    expect(await barStates(t.db, first.serials)).toEqual([
      { serial: first.serials[0], status: 'backing', order_id: first.orderId },
      { serial: first.serials[1], status: 'reserved', order_id: other },
    ])
  })
})
