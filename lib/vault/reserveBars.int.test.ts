import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { BarAlreadyUsedError, BarMismatchError, BarNotInVaultError, ValidationError } from '@/lib/web/errors'
import { type CreateMintOrderParameters, createMintOrder } from '@/lib/web/mint/createMintOrder'
import { importTestBarList, stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { intakeSession, type TestUsers } from '@/tests/helpers/users'
import { releaseBars } from './releaseBars'

// The intake against the bar list (create_mint_order's bar rules, through createMintOrder as the route calls it).

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

beforeAll(async () => {
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
  await importTestBarList(t.db, {
    vault: 'RSV-1',
    asOf: new Date(Date.now() - 60_000),
    bars: [
      ...Array.from({ length: 20 }, (_, i) => ({ serial: `R-${i}` })),
      { serial: 'P-1', refiner: 'PAMP SA', grossOz: '400.000', fineness: '995.0', year: 2019 },
    ],
  })
  await importTestBarList(t.db, { vault: 'RSV-2', asOf: new Date(Date.now() - 60_000), bars: [{ serial: 'OTHER-1' }] })
})

function create(request: MintRequestInput, p: Partial<CreateMintOrderParameters> = {}) {
  return createMintOrder(t.db, {
    session: intakeSession(u.staff),
    maxAttempts: 5,
    request,
    ...p,
  })
}

async function counts() {
  const [row] = await t.db.execute<{ orders: number; links: number; reserved: number; jobs: number }>(sql`
    select (select count(*)::int from mint_orders) as orders, (select count(*)::int from mint_order_bars) as links,
           (select count(*)::int from vault_bars where status <> 'available') as reserved,
           (select count(*)::int from graphile_worker._private_jobs) as jobs`)
  return row
}

async function barOf(serial: string) {
  const [row] = await t.db.execute<{ status: string; order_id: string | null }>(sql`
    select status::text as status, order_id::text as order_id from vault_bars where serial = ${serial}`)
  return row
}

/** A request naming bars by serial + refiner only: the bar list supplies the rest. */
function byName(serials: string[], amount: string, vault = 'RSV-1'): MintRequestInput {
  const base = buildMintRequest({ vault, bars: serials.map((serial) => ({ serial })) })
  return {
    ...base,
    amount,
    vaultProof: { ...base.vaultProof, bars: serials.map((serial) => ({ serial, refiner: 'Valcambi SA' })) },
  }
}

describe('reserveBars (the intake)', () => {
  it('reserves free listed bars for the order; weights may be left out', async () => {
    const accepted = await create(byName(['R-0', 'r 1'], '802.168'))
    expect(await barOf('R-0')).toEqual({ status: 'reserved', order_id: accepted.orderId })
    expect(await barOf('R-1')).toEqual({ status: 'reserved', order_id: accepted.orderId })
    const links = await t.db.execute<{ serial: string; position: number }>(sql`
      select b.serial, mb.position from mint_order_bars mb join vault_bars b on b.id = mb.bar_id
      where mb.order_id = ${accepted.orderId}::uuid order by mb.position`)
    expect(links).toEqual([
      { serial: 'R-0', position: 0 },
      { serial: 'R-1', position: 1 },
    ])
  })

  it('accepts given weights that equal the list', async () => {
    const request = buildMintRequest({
      vault: 'RSV-1',
      bars: [{ serial: 'P-1', refiner: 'pamp-sa', grossOz: '400', fineness: '995', year: 2019 }],
    })
    await expect(create(request)).resolves.toMatchObject({ status: 'awaiting_approval' })
  })

  it('refuses invented bars (422 bar_not_in_vault, each named) and writes nothing', async () => {
    const before = await counts()
    const error = await create(
      buildMintRequest({ vault: 'RSV-1', bars: [{ serial: 'R-2' }, { serial: 'INVENTED-1' }, { serial: 'OTHER-1' }] }),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BarNotInVaultError)
    expect(error).toMatchObject({
      code: 'bar_not_in_vault',
      issues: [
        {
          path: 'vaultProof.bars.1',
          message: 'bar INVENTED-1 (Valcambi SA) is not in the latest bar list of vault RSV-1',
        },
        {
          path: 'vaultProof.bars.2',
          message: 'bar OTHER-1 (Valcambi SA) is not in the latest bar list of vault RSV-1',
        },
      ],
    })
    expect(await counts()).toEqual(before)
    expect(await barOf('R-2')).toEqual({ status: 'available', order_id: null })
  })

  it('refuses a vault without any bar list', async () => {
    await expect(create(buildMintRequest({ vault: 'NO-LIST', bars: [{ serial: 'R-3' }] }))).rejects.toBeInstanceOf(
      BarNotInVaultError,
    )
  })

  it('refuses wrong weights (422 bar_mismatch, each field named) and writes nothing', async () => {
    const before = await counts()
    const request = buildMintRequest({
      vault: 'RSV-1',
      bars: [
        { serial: 'R-3', grossOz: '401.000' },
        { serial: 'R-4', year: 2020 },
      ],
    })
    const error = await create(request).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BarMismatchError)
    expect((error as BarMismatchError).issues).toEqual([
      { path: 'vaultProof.bars.0.grossOz', message: 'must be 401.125 as in the bar list (got 401.000)' },
      { path: 'vaultProof.bars.0.fineOz', message: 'must be 401.084 as in the bar list (got 400.959)' },
      { path: 'vaultProof.bars.1.year', message: 'must be 2025 as in the bar list (got 2020)' },
    ])
    expect(await counts()).toEqual(before)
  })

  it("refuses an amount other than the sum of the list's fine weights", async () => {
    const before = await counts()
    const error = await create(byName(['R-5'], '401.000')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).issues).toEqual([
      { path: 'amount', message: "must equal the sum of the bars' fine weights in the bar list of RSV-1: 401.084" },
    ])
    expect(await counts()).toEqual(before)
  })

  it('refuses a bar used twice (409 bar_already_used) and writes nothing, even in another spelling', async () => {
    await create(byName(['R-6'], '401.084'))
    const before = await counts()
    const error = await create(byName(['R-7', 'r-6'], '802.168')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BarAlreadyUsedError)
    expect(error).toMatchObject({ code: 'bar_already_used', bars: [{ serial: 'r-6', index: 1 }] })
    expect(await counts()).toEqual(before)
    expect(await barOf('R-7')).toEqual({ status: 'available', order_id: null })
  })

  it('two concurrent requests for the same bar: exactly one wins', async () => {
    await stockBars(t.db, { vault: 'RSV-1', bars: Array.from({ length: 20 }, (_, i) => ({ serial: `CC-${i}` })) })
    const before = await counts()
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        create(byName([`CC-${i}`, 'R-8'], '802.168'), { session: intakeSession(i % 2 ? u.staff : u.otherStaff) }),
      ),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(BarAlreadyUsedError)
    const after = await counts()
    expect(after.orders - before.orders).toBe(1)
    expect(after.links - before.links).toBe(2)
    expect(after.reserved - before.reserved).toBe(2)
  })

  it('two requests sharing bars in opposite orders do not deadlock', async () => {
    await stockBars(t.db, { vault: 'RSV-1', bars: [{ serial: 'DX' }, { serial: 'DY' }] })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => create(byName(i % 2 ? ['DX', 'DY'] : ['DY', 'DX'], '802.168'))),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(BarAlreadyUsedError)
  })

  it('a released bar (its order failed or cancelled) may back a later order; the first order keeps its history', async () => {
    const first = await create(byName(['R-9'], '401.084'))
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`update mint_orders set status = 'failed' where id = ${first.orderId}::uuid`)
      await releaseBars(tx, { orderId: first.orderId })
    })
    expect(await barOf('R-9')).toEqual({ status: 'available', order_id: null })
    const second = await create(byName(['R-9'], '401.084'))
    expect(await barOf('R-9')).toEqual({ status: 'reserved', order_id: second.orderId })
    const history = await t.db.execute<{ order_id: string }>(sql`
      select mb.order_id::text as order_id from mint_order_bars mb join vault_bars b on b.id = mb.bar_id
      where b.serial = 'R-9' order by mb.order_id = ${first.orderId}::uuid desc`)
    expect(history.map((h) => h.order_id)).toEqual([first.orderId, second.orderId])
  })
})
