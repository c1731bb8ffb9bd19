import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { barStates, orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { releaseBars } from './releaseBars'

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('releaseBars', () => {
  it('frees reserved bars (available) and missing ones (withdrawn); the order keeps its history', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u, vault: 'REL-1' })
    // the next list lacks the second bar: it is missing, still held by the order
    await t.db.execute(sql`update vault_bars set status = 'missing' where serial = ${serials[1]}`)
    const result = await t.db.transaction((tx) => releaseBars(tx, { orderId }))
    expect(result).toEqual({ released: 2, held: 0 })
    expect(await barStates(t.db, serials)).toEqual([
      { serial: serials[0], status: 'available', order_id: null },
      { serial: serials[1], status: 'withdrawn', order_id: null },
    ])
    const [links] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from mint_order_bars where order_id = ${orderId}::uuid`,
    )
    expect(links?.n).toBe(2)
  })

  it('never frees the bars of a confirmed order', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u, vault: 'REL-1', bars: 1 })
    await t.db.execute(sql`update vault_bars set status = 'backing' where order_id = ${orderId}::uuid`)
    expect(await t.db.transaction((tx) => releaseBars(tx, { orderId }))).toEqual({ released: 0, held: 0 })
    expect(await barStates(t.db, serials)).toEqual([{ serial: serials[0], status: 'backing', order_id: orderId }])
  })

  it('a bar never seen on a list (from before bar lists) is withdrawn, not available', async () => {
    const { id } = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending' })
    await t.db.transaction((tx) => releaseBars(tx, { orderId: id }))
    const rows = await t.db.execute<{ status: string; order_id: string | null }>(sql`
      select b.status::text as status, b.order_id::text as order_id from vault_bars b join mint_order_bars mb on mb.bar_id = b.id where mb.order_id = ${id}::uuid`)
    expect(rows).toEqual([{ status: 'withdrawn', order_id: null }])
  })

  it('is a no-op for an order without held bars', async () => {
    expect(
      await t.db.transaction((tx) => releaseBars(tx, { orderId: '00000000-0000-4000-8000-000000000000' })),
    ).toEqual({ released: 0, held: 0 })
  })

  it('keeps the bars while a transaction signed for the order can be mined, frees them once its nonce is used', async () => {
    const { orderId, serials } = await orderWithListedBars(t.db, { users: u, vault: 'REL-1', bars: 1 })
    const signer = '0x00000000000000000000000000000000000000b1'
    await t.db.execute(
      sql`insert into signers (address, kms_key_id, chain_id, next_nonce) values (${signer}, 'rel-test-key', 31337, 8) on conflict do nothing`,
    )
    const stored = (hash: string, kind: string, order: string | null) => sql`
      insert into chain_txs (hash, signer_address, nonce, order_id, kind, raw_tx, max_fee_per_gas, max_priority_fee_per_gas, gas_limit)
      values (${hash}, ${signer}, 7, ${order}::uuid, ${kind}::tx_kind, '0x', 1, 1, 21000)`
    await t.db.execute(stored(`0x${'a'.repeat(64)}`, 'mint', orderId))
    expect(await t.db.transaction((tx) => releaseBars(tx, { orderId }))).toEqual({ released: 0, held: 1 })
    expect(await barStates(t.db, serials)).toEqual([{ serial: serials[0], status: 'reserved', order_id: orderId }])

    // a gap fill at that nonce is mined: the signed mint can never be mined now
    await t.db.execute(stored(`0x${'b'.repeat(64)}`, 'gap_fill', null))
    await t.db.execute(sql`update chain_txs set mined_block = 12 where hash = ${`0x${'b'.repeat(64)}`}`)
    expect(await t.db.transaction((tx) => releaseBars(tx, { orderId }))).toEqual({ released: 1, held: 0 })
    expect(await barStates(t.db, serials)).toEqual([{ serial: serials[0], status: 'available', order_id: null }])
  })
})
