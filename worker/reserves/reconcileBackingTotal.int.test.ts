import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { importTestBarList } from '@/tests/helpers/barLists'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { orderWithListedBars } from '@/tests/helpers/orderWithListedBars'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { markBarsBacking } from '@/worker/vault/markBarsBacking'
import { reconcileBackingTotal } from './reconcileBackingTotal'

let t: TestDatabase
let u: TestUsers
let worker: DbClient
let web: DbClient

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  // each process's own role: the triggers and the fold run as the owner, whoever changes the bars
  worker = createDb({ url: t.roleUrl('worker'), max: 2, name: 'reconcile-as-worker' })
  web = createDb({ url: t.roleUrl('web'), max: 2, name: 'import-as-web' })
})

afterAll(async () => {
  await worker?.close()
  await web?.close()
  await t.drop()
})

const recount = async () => (await readReserveTotals(t.db)).backingWei
const running = async () => (await readReserveTotals(t.db, { withFree: false })).backingWei
const deltaRows = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from vault_backing_deltas`))[0]?.n

describe('the running total of the backing bars', () => {
  it('follows every change of status (confirmed as the worker, dropped by an import as the web), and a fold keeps it as one row', async () => {
    expect(await running()).toBe(0n)
    const a = await orderWithListedBars(t.db, { users: u, vault: 'RUN-1', bars: 3 })
    const b = await orderWithListedBars(t.db, { users: u, vault: 'RUN-1', bars: 2 })
    // reserving bars changes nothing backing: no row
    expect(await deltaRows()).toBe(0)

    await worker.db.transaction(async (tx) => {
      await tx.execute(
        sql`update mint_orders set status = 'confirmed' where id in (${a.orderId}::uuid, ${b.orderId}::uuid)`,
      )
      await markBarsBacking(tx, { orderIds: [a.orderId, b.orderId] })
    })
    expect(await recount()).toBeGreaterThan(0n)
    expect(await running()).toBe(await recount())
    expect(await deltaRows(), 'one row for the one statement').toBe(1)

    // the custodian's next list lacks one of a's bars: backing -> missing, written by the web's import
    const [, ...kept] = a.serials
    await importTestBarList(web.db, { vault: 'RUN-1', bars: [...kept, ...b.serials].map((serial) => ({ serial })) })
    expect(await running()).toBe(await recount())

    const folded = await reconcileBackingTotal(worker.db)
    expect(folded).toEqual({ runningWei: await recount(), recountWei: await recount(), folded: 2 })
    expect(await deltaRows()).toBe(1)
    expect(await running()).toBe(await recount())
  })

  it('a change that bypassed the triggers is reported by the fold, and the recount stands from then on', async () => {
    const before = await recount()
    // a hand edit that the triggers cannot see: one more milli-ounce in the running total than on the bars
    await t.db.execute(sql`insert into vault_backing_deltas (fine_oz) values (0.001)`)
    expect(await running()).toBe(before + WEI_PER_MILLI_OZ)
    const folded = await reconcileBackingTotal(worker.db)
    expect(folded.runningWei).toBe(before + WEI_PER_MILLI_OZ)
    expect(folded.recountWei).toBe(before)
    expect(await running()).toBe(before)
  })

  it('neither runtime role writes the running total itself: only the triggers and the fold, as the owner', async () => {
    for (const [role, client] of [
      ['web', web],
      ['worker', worker],
    ] as const) {
      for (const statement of [
        sql`insert into vault_backing_deltas (fine_oz) values (1000)`,
        sql`delete from vault_backing_deltas`,
        sql`update vault_backing_deltas set fine_oz = fine_oz + 1000`,
      ]) {
        await expect(client.db.execute(statement), role).rejects.toMatchObject({ cause: { code: '42501' } })
      }
    }
    const folded = worker.db.execute(sql`select * from fold_backing_deltas()`)
    await expect(folded, 'the worker folds').resolves.toBeDefined()
    await expect(
      web.db.execute(sql`select * from fold_backing_deltas()`),
      'the web may not fold',
    ).rejects.toMatchObject({ cause: { code: '42501' } })
  })
})
