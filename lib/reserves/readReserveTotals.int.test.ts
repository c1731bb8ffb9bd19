import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { importTestBarList, stockBars } from '@/tests/helpers/barLists'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { markBarsBacking } from '@/worker/vault/markBarsBacking'
import { readReserveTotals } from './readReserveTotals'

let t: TestDatabase
let u: TestUsers

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
})

afterAll(async () => {
  await t.drop()
})

/** the fine weight of these bars in wei, summed here bar by bar (not by the statement under test) */
async function weiOf(serials: readonly string[]): Promise<bigint> {
  const rows = await t.db.execute<{ fine_oz: string }>(sql`
    select fine_oz::text as fine_oz from vault_bars where serial = any(${`{${serials.join(',')}}`}::text[])`)
  expect(rows).toHaveLength(serials.length)
  return rows.reduce((sum, r) => sum + BigInt(r.fine_oz.replace('.', '')) * WEI_PER_MILLI_OZ, 0n)
}

describe('readReserveTotals', () => {
  it('an empty inventory is all zeros and no lists', async () => {
    const empty = await createTestDatabase({ max: 1 })
    try {
      expect(await readReserveTotals(empty.db)).toEqual({
        backingWei: 0n,
        inFlightWei: 0n,
        availableWei: 0n,
        missingWei: 0n,
        barLists: [],
      })
    } finally {
      await empty.drop()
    }
  })

  it('counts backing, in flight (signed or submitted), available and missing; unsigned orders count in neither', async () => {
    const signer = await insertSigner(t.db)
    const pending = await orderWithListedBars(t.db, { users: u, vault: 'RSV-1' })
    const submitted = await orderWithListedBars(t.db, { users: u, vault: 'RSV-1' })
    await t.db.execute(sql`update mint_orders set status = 'submitted' where id = ${submitted.orderId}::uuid`)
    const signed = await orderWithListedBars(t.db, { users: u, vault: 'RSV-1' })
    await reserveNonce(t.db, { signer, nonce: 0n, orderId: signed.orderId, signed: true })
    const reservedOnly = await orderWithListedBars(t.db, { users: u, vault: 'RSV-1' })
    await reserveNonce(t.db, { signer, nonce: 1n, orderId: reservedOnly.orderId })
    const confirmed = await orderWithListedBars(t.db, { users: u, vault: 'RSV-2', bars: 3 })
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`update mint_orders set status = 'confirmed' where id = ${confirmed.orderId}::uuid`)
      await markBarsBacking(tx, { orderIds: [confirmed.orderId] })
    })
    const [lost, ...backing] = confirmed.serials
    const free = ['RSV-FREE-1', 'RSV-FREE-2']
    await stockBars(t.db, { vault: 'RSV-2', bars: free.map((serial) => ({ serial })) })
    // the custodian's next list lacks one bar of the confirmed order: it is missing
    await importTestBarList(t.db, { vault: 'RSV-2', bars: [...backing, ...free].map((serial) => ({ serial })) })

    const totals = await readReserveTotals(t.db)
    expect(totals.backingWei).toBe(await weiOf(backing))
    expect(totals.inFlightWei).toBe(await weiOf([...submitted.serials, ...signed.serials]))
    expect(totals.availableWei).toBe(await weiOf(free))
    expect(totals.missingWei).toBe(await weiOf([lost as string]))
    const latest = await t.db.execute<{ vault: string; as_of: Date | string }>(sql`
      select vault, max(as_of) as as_of from bar_lists group by vault order by vault`)
    expect(totals.barLists).toEqual(latest.map((l) => ({ vault: l.vault, asOf: new Date(l.as_of) })))
    expect(totals.barLists.map((l) => l.vault)).toEqual(['RSV-1', 'RSV-2'])
    expect(pending.serials).toHaveLength(2)

    // the worker's view: the order it checks is left out of every total
    const without = await readReserveTotals(t.db, { excludeOrderId: signed.orderId })
    expect(without.inFlightWei).toBe(await weiOf(submitted.serials))
    expect(without.backingWei).toBe(totals.backingWei)
    expect(without.availableWei).toBe(totals.availableWei)

    // the check before signing asks for the held totals only: the same backing and in
    // flight, the free totals (which scan the whole inventory) not read
    const held = await readReserveTotals(t.db, { excludeOrderId: signed.orderId, withFree: false })
    expect(held).toMatchObject({
      backingWei: without.backingWei,
      inFlightWei: without.inFlightWei,
      availableWei: 0n,
      missingWei: 0n,
    })

    // backing from the running total (vault_backing_deltas) less an excluded order's own bars, as the recount says
    const ownBacking = await weiOf(backing)
    expect((await readReserveTotals(t.db, { excludeOrderId: confirmed.orderId })).backingWei).toBe(
      totals.backingWei - ownBacking,
    )
    expect((await readReserveTotals(t.db, { excludeOrderId: confirmed.orderId, withFree: false })).backingWei).toBe(
      totals.backingWei - ownBacking,
    )
    // the reserves page's read: every total as the recount says, the backing from the running total
    expect(await readReserveTotals(t.db, { backingFrom: 'runningTotal' })).toEqual(totals)
    // the running total is what the triggers appended, not a recount: a row appended by hand moves it
    await t.db.execute(sql`insert into vault_backing_deltas (fine_oz) values (1)`)
    expect((await readReserveTotals(t.db, { withFree: false })).backingWei).toBe(
      totals.backingWei + 1000n * WEI_PER_MILLI_OZ,
    )
    expect((await readReserveTotals(t.db, { backingFrom: 'runningTotal' })).backingWei).toBe(
      totals.backingWei + 1000n * WEI_PER_MILLI_OZ,
    )
    expect((await readReserveTotals(t.db)).backingWei).toBe(totals.backingWei)
    await t.db.execute(sql`insert into vault_backing_deltas (fine_oz) values (-1)`)
  })

  it('in flight follows the order status: a failed order whose transaction may land keeps its bars in it, a confirmed one leaves it', async () => {
    const signer = await insertSigner(t.db)
    const vault = 'RSV-STATUS'
    const signed = await orderWithListedBars(t.db, { users: u, vault })
    await reserveNonce(t.db, { signer, nonce: 0n, orderId: signed.orderId, signed: true })
    const submitted = await orderWithListedBars(t.db, { users: u, vault })
    await t.db.execute(sql`update mint_orders set status = 'submitted' where id = ${submitted.orderId}::uuid`)
    const before = await readReserveTotals(t.db)
    const both = await weiOf([...signed.serials, ...submitted.serials])

    // failed while its signed transaction can still be mined: its bars stay reserved, and in flight
    await t.db.execute(sql`update mint_orders set status = 'failed' where id = ${signed.orderId}::uuid`)
    expect((await readReserveTotals(t.db)).inFlightWei).toBe(before.inFlightWei)
    // confirmed, its bars not yet backing (the confirming statement's next step): in flight no more, nor backing yet
    await t.db.execute(sql`update mint_orders set status = 'confirmed' where id = ${submitted.orderId}::uuid`)
    const confirmed = await readReserveTotals(t.db)
    expect(confirmed.inFlightWei).toBe(before.inFlightWei - (await weiOf(submitted.serials)))
    expect(confirmed.backingWei).toBe(before.backingWei)
    // back to submitted (a reorg): in flight again; the worker's own read leaves out the order it checks
    await t.db.execute(sql`update mint_orders set status = 'submitted' where id = ${submitted.orderId}::uuid`)
    expect((await readReserveTotals(t.db)).inFlightWei).toBe(before.inFlightWei)
    expect((await readReserveTotals(t.db, { excludeOrderId: signed.orderId, withFree: false })).inFlightWei).toBe(
      before.inFlightWei - (await weiOf(signed.serials)),
    )
    expect(both).toBeGreaterThan(0n)
  })
})
