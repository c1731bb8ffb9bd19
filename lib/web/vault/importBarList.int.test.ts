import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { devKey } from '@/lib/keys/devKeys'
import { StaleBarListError } from '@/lib/web/errors'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { barListMessageTypedData } from '@/lib/web/vault/barListMessage'
import { devCustodianSignature } from '@/scripts/stack/devCustodianSignature'
import { buildBarList, generateTestBars, importTestBarList } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { intakeSession, type TestUsers } from '@/tests/helpers/users'
import { importBarList } from './importBarList'

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

beforeAll(async () => {
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
})

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 6, minute))

async function barsOf(vault: string) {
  return t.db.execute<{ serial: string; status: string; order_id: string | null; gross_oz: string; vault: string }>(sql`
    select serial, status::text as status, order_id::text as order_id, gross_oz::text as gross_oz, vault
    from vault_bars where vault = ${vault} order by serial`)
}

async function tableCounts() {
  const [row] = await t.db.execute<{ lists: number; bars: number; audits: number }>(sql`
    select (select count(*)::int from bar_lists) as lists, (select count(*)::int from vault_bars) as bars,
           (select count(*)::int from audit_log) as audits`)
  return row
}

describe('importBarList', () => {
  it('adds new bars as available, counts them, and records who imported it', async () => {
    const result = await importTestBarList(t.db, {
      vault: 'IMP-1',
      asOf: at(0),
      bars: [{ serial: 'A1' }, { serial: 'A2', grossOz: '400.000', fineness: '995.0' }],
      actor: { id: u.admin.id, email: u.admin.email },
    })
    expect(result).toEqual({
      listId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      vault: 'IMP-1',
      asOf: at(0).toISOString(),
      added: 2,
      unchanged: 0,
      withdrawn: 0,
      missing: [],
      conflicts: [],
    })
    const bars = await t.db.execute<{
      serial: string
      serial_key: string
      refiner_key: string
      fine_oz: string
      status: string
      last: boolean
    }>(sql`
      select serial, serial_key, refiner_key, fine_oz::text as fine_oz, status::text as status, last_list_id = ${result.listId}::uuid as last
      from vault_bars where vault = 'IMP-1' order by serial`)
    expect(bars).toEqual([
      {
        serial: 'A1',
        serial_key: 'A1',
        refiner_key: 'VALCAMBISA',
        fine_oz: '401.084',
        status: 'available',
        last: true,
      },
      {
        serial: 'A2',
        serial_key: 'A2',
        refiner_key: 'VALCAMBISA',
        fine_oz: '398.000',
        status: 'available',
        last: true,
      },
    ])
    const [list] = await t.db.execute<{ imported_by: string; bar_count: number }>(
      sql`select imported_by::text as imported_by, bar_count from bar_lists where id = ${result.listId}::uuid`,
    )
    expect(list).toEqual({ imported_by: u.admin.id, bar_count: 2 })
    const [audit] = await t.db.execute<{
      action: string
      target_type: string
      actor_email: string
      detail: Record<string, unknown>
    }>(sql`
      select action, target_type, actor_email, detail from audit_log where target_id = ${result.listId}`)
    expect(audit).toMatchObject({
      action: 'vault.bar_list_import',
      target_type: 'bar_list',
      actor_email: u.admin.email,
      detail: { vault: 'IMP-1', added: 2, replay: false },
    })
  })

  it('the same list again changes nothing and answers the same', async () => {
    const bars = [{ serial: 'S1' }, { serial: 'S2' }]
    const first = await importTestBarList(t.db, { vault: 'IMP-SAME', asOf: at(0), bars })
    const before = await tableCounts()
    const again = await importTestBarList(t.db, { vault: 'IMP-SAME', asOf: at(0), bars: [...bars].reverse() })
    expect(again).toEqual(first)
    expect(await tableCounts()).toEqual(before)
    // still the same answer once a later list exists (it is not refused as stale)
    await importTestBarList(t.db, { vault: 'IMP-SAME', asOf: at(5), bars })
    expect(await importTestBarList(t.db, { vault: 'IMP-SAME', asOf: at(0), bars })).toEqual(first)
  })

  it('refuses a list older than the latest one (409 stale_bar_list) and writes nothing', async () => {
    await importTestBarList(t.db, { vault: 'IMP-STALE', asOf: at(10), bars: [{ serial: 'ST1' }] })
    const before = await tableCounts()
    const error = await importTestBarList(t.db, {
      vault: 'IMP-STALE',
      asOf: at(9),
      bars: [{ serial: 'ST1' }, { serial: 'ST2' }],
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StaleBarListError)
    expect(error).toMatchObject({ code: 'stale_bar_list' })
    expect(await tableCounts()).toEqual(before)
    // another vault's clock is its own
    await expect(
      importTestBarList(t.db, { vault: 'IMP-STALE-2', asOf: at(9), bars: [{ serial: 'ST9' }] }),
    ).resolves.toMatchObject({ added: 1 })
  })

  it('a snapshot: a free bar it lacks is withdrawn, a reserved or backing one missing; both come back when listed again', async () => {
    const vault = 'IMP-SNAP'
    await importTestBarList(t.db, {
      vault,
      asOf: at(0),
      bars: [{ serial: 'F1' }, { serial: 'R1' }, { serial: 'B1' }, { serial: 'K1' }],
    })
    const reserved = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request: buildMintRequest({ vault, bars: [{ serial: 'R1' }] }),
    })
    const backing = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request: buildMintRequest({ vault, bars: [{ serial: 'B1' }] }),
    })
    await t.db.execute(sql`update mint_orders set status = 'confirmed' where id = ${backing.orderId}::uuid`)
    await t.db.execute(sql`update vault_bars set status = 'backing' where order_id = ${backing.orderId}::uuid`)

    const dropped = await importTestBarList(t.db, { vault, asOf: at(1), bars: [{ serial: 'K1' }, { serial: 'N1' }] })
    expect(dropped).toMatchObject({ added: 1, unchanged: 1, withdrawn: 1 })
    expect(dropped.missing).toEqual([
      { serial: 'B1', refiner: 'Valcambi SA', orderId: backing.orderId },
      { serial: 'R1', refiner: 'Valcambi SA', orderId: reserved.orderId },
    ])
    expect((await barsOf(vault)).map((b) => [b.serial, b.status, b.order_id])).toEqual([
      ['B1', 'missing', backing.orderId],
      ['F1', 'withdrawn', null],
      ['K1', 'available', null],
      ['N1', 'available', null],
      ['R1', 'missing', reserved.orderId],
    ])

    const back = await importTestBarList(t.db, {
      vault,
      asOf: at(2),
      bars: [{ serial: 'F1' }, { serial: 'R1' }, { serial: 'B1' }, { serial: 'K1' }, { serial: 'N1' }],
    })
    expect(back).toMatchObject({ added: 0, unchanged: 5, withdrawn: 0, missing: [], conflicts: [] })
    expect((await barsOf(vault)).map((b) => [b.serial, b.status, b.order_id])).toEqual([
      ['B1', 'backing', backing.orderId],
      ['F1', 'available', null],
      ['K1', 'available', null],
      ['N1', 'available', null],
      ['R1', 'reserved', reserved.orderId],
    ])
  })

  it("records each list's members in the same transaction, so a past list's bars stay known after later lists", async () => {
    const vault = 'IMP-MEMBERS'
    const members = async (listId: string) =>
      (
        await t.db.execute<{ serial: string }>(sql`
          select b.serial from bar_list_members m join vault_bars b on b.id = m.bar_id
          where m.list_id = ${listId}::uuid order by b.serial`)
      ).map((r) => r.serial)
    await importTestBarList(t.db, { vault: 'IMP-MEMBERS-2', asOf: at(0), bars: [{ serial: 'MX' }] })
    const first = await importTestBarList(t.db, { vault, asOf: at(0), bars: [{ serial: 'M1' }, { serial: 'M2' }] })
    const second = await importTestBarList(t.db, {
      vault,
      asOf: at(1),
      bars: [{ serial: 'M2' }, { serial: 'M3' }, { serial: 'MX' }],
    })
    expect(await members(first.listId)).toEqual(['M1', 'M2'])
    // a listed bar that another vault holds (a conflict) is still one of the list's bars
    expect(await members(second.listId)).toEqual(['M2', 'M3', 'MX'])
    // the same list again records nothing twice; a refused (stale) list records nothing
    await importTestBarList(t.db, { vault, asOf: at(1), bars: [{ serial: 'M2' }, { serial: 'M3' }, { serial: 'MX' }] })
    await importTestBarList(t.db, { vault, asOf: at(0), bars: [{ serial: 'M9' }] }).catch(() => undefined)
    const [n] = await t.db.execute<{ n: number }>(sql`
      select count(*)::int as n from bar_list_members m join bar_lists l on l.id = m.list_id where l.vault = ${vault}`)
    expect(n?.n).toBe(5)
  })

  it('reports attributes that differ from the inventory as conflicts and does not apply them', async () => {
    const vault = 'IMP-CONF'
    await importTestBarList(t.db, { vault, asOf: at(0), bars: [{ serial: 'C1' }, { serial: 'C2' }] })
    await importTestBarList(t.db, { vault: 'IMP-OTHER', asOf: at(0), bars: [{ serial: 'O1' }] })
    const result = await importTestBarList(t.db, {
      vault,
      asOf: at(1),
      bars: [{ serial: 'c-1', grossOz: '401.000', year: 2024 }, { serial: 'C2' }, { serial: 'O1' }],
    })
    expect(result).toMatchObject({ added: 0, unchanged: 1, withdrawn: 0, missing: [] })
    expect(result.conflicts).toEqual([
      { serial: 'c-1', refiner: 'Valcambi SA', field: 'year', inventory: '2025', list: '2024' },
      { serial: 'c-1', refiner: 'Valcambi SA', field: 'grossOz', inventory: '401.125', list: '401.000' },
      { serial: 'O1', refiner: 'Valcambi SA', field: 'vault', inventory: 'IMP-OTHER', list: vault },
    ])
    const bars = await barsOf(vault)
    expect(bars.map((b) => [b.serial, b.gross_oz, b.status])).toEqual([
      ['C1', '401.125', 'available'],
      ['C2', '401.125', 'available'],
    ])
    expect((await barsOf('IMP-OTHER')).map((b) => [b.serial, b.status])).toEqual([['O1', 'available']])
  })

  it('imports 100,000 bars in one go (the time is logged, not asserted)', async () => {
    const vault = 'IMP-BIG'
    const list = buildBarList({ vault, asOf: at(0), bars: generateTestBars({ count: 100_000, prefix: 'BIG' }) })
    const t0 = performance.now()
    const result = await importBarList(t.db, { list, actor: null, custodian: await devCustodianSignature(list) })
    const firstMs = performance.now() - t0
    expect(result).toMatchObject({ added: 100_000, unchanged: 0, withdrawn: 0, missing: [], conflicts: [] })

    // the next day's list: 1,000 bars gone, 1,000 new
    const next = buildBarList({
      vault,
      asOf: at(1),
      bars: [
        ...generateTestBars({ count: 100_000, prefix: 'BIG' }).slice(1_000),
        ...generateTestBars({ count: 1_000, prefix: 'BIGNEW' }),
      ],
    })
    const t1 = performance.now()
    const second = await importBarList(t.db, { list: next, actor: null, custodian: await devCustodianSignature(next) })
    const secondMs = performance.now() - t1
    expect(second).toMatchObject({ added: 1_000, unchanged: 99_000, withdrawn: 1_000, missing: [], conflicts: [] })
    const [members] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from bar_list_members where list_id = ${second.listId}::uuid`,
    )
    expect(members?.n).toBe(100_000)
    console.log(
      `[vault] 100,000-bar list imported in ${Math.round(firstMs)} ms (new), then ${Math.round(secondMs)} ms (a snapshot of 100,000 over it)`,
    )
    // four Merkle roots of 100,000 bars (each list's signature is made, then verified by the import):
    // a few minutes on a busy machine
  }, 600_000)

  it('keeps quotes, backslashes, commas and braces in serials and refiners as they are', async () => {
    const odd = [
      { serial: 'Q"1\\', refiner: 'Heraeus, {Ltd}' },
      { serial: "O'2", refiner: 'NULL' },
    ]
    await importTestBarList(t.db, { vault: 'IMP-ODD', asOf: at(0), bars: odd })
    const rows = await t.db.execute<{ serial: string; refiner: string }>(
      sql`select serial, refiner from vault_bars where vault = 'IMP-ODD' order by serial`,
    )
    expect(rows).toEqual([
      { serial: "O'2", refiner: 'NULL' },
      { serial: 'Q"1\\', refiner: 'Heraeus, {Ltd}' },
    ])
  })

  it('two imports of one vault at once run one after the other: the second sees the first as latest', async () => {
    const vault = 'IMP-RACE'
    // two lists of one second: whichever takes the vault's lock first is imported, the other is then stale
    const a = importTestBarList(t.db, { vault, asOf: at(1), bars: [{ serial: 'RA1' }, { serial: 'RA2' }] })
    const b = importTestBarList(t.db, { vault, asOf: at(1), bars: [{ serial: 'RA1' }, { serial: 'RA3' }] })
    const settled = await Promise.allSettled([a, b])
    const imported = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []))
    expect(imported).toHaveLength(1)
    expect(imported[0]).toMatchObject({ added: 2 })
    expect(refused).toHaveLength(1)
    expect(refused[0]).toBeInstanceOf(StaleBarListError)
    expect((await barsOf(vault)).map((x) => x.status)).toEqual(['available', 'available'])
    // a list of the next second after both: the snapshot applies over the one imported
    const next = await importTestBarList(t.db, { vault, asOf: at(2), bars: [{ serial: 'RA1' }, { serial: 'RA4' }] })
    expect(next).toMatchObject({ added: 1, unchanged: 1, withdrawn: 1 })
    const statuses = (await barsOf(vault)).map((x) => x.status).sort()
    expect(statuses).toEqual(['available', 'available', 'withdrawn'])
  })

  it("refuses a list whose Custodian-Signature is not the vault's custodian's, or not over these bars (422 invalid_signature), writing nothing", async () => {
    const vault = 'IMP-SIGNED'
    const list = buildBarList({ vault, asOf: at(0), bars: generateTestBars({ count: 3, prefix: 'SIG' }) })
    const genuine = await devCustodianSignature(list)
    const other = buildBarList({ vault, asOf: at(0), bars: generateTestBars({ count: 4, prefix: 'SIG' }) })
    const forOther = await devCustodianSignature(other)
    const byApprover = {
      ...genuine,
      signature: await devKey('approver').signTypedData(barListMessageTypedData(genuine.domain, list)),
    }
    for (const custodian of [
      { ...genuine, signature: forOther.signature },
      byApprover,
      { ...genuine, signature: `0x${'11'.repeat(65)}` },
    ]) {
      await expect(importBarList(t.db, { list, actor: null, custodian })).rejects.toMatchObject({
        code: 'invalid_signature',
      })
    }
    expect(await barsOf(vault)).toEqual([])
    expect(await t.db.execute(sql`select 1 from bar_lists where vault = ${vault}`)).toHaveLength(0)
    const imported = await importBarList(t.db, { list, actor: null, custodian: genuine })
    expect(imported.added).toBe(3)
    const [row] = await t.db.execute<{ custodian_address: string; bars_root: string }>(
      sql`select custodian_address, bars_root from bar_lists where vault = ${vault}`,
    )
    expect(row?.custodian_address).toBe(devKey('custodian').address.toLowerCase())
  })
})
