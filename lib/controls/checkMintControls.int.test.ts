import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { ozToWei } from '@/lib/money/ozToWei'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { checkMintControlsOfOrders } from '@/worker/controls/checkMintControlsOfOrders'
import { checkMintControls } from './checkMintControls'

const ALLOWED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

let t: TestDatabase
let u: TestUsers

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [ALLOWED.toLowerCase()])
})

afterAll(async () => {
  await t.drop()
})

beforeEach(async () => {
  await t.db.execute(sql`delete from mint_order_bars`)
  await t.db.execute(sql`delete from vault_bars`)
  await t.db.execute(sql`delete from mint_orders`)
  await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
})

describe('checkMintControls', () => {
  it('passes an allowed recipient in any case, with no limits set', async () => {
    await expect(checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('1000000') })).resolves.toEqual({
      usedWei: 0n,
    })
    await expect(checkMintControls(t.db, { to: ALLOWED.toLowerCase(), amountWei: 1n })).resolves.toBeDefined()
  })

  it('refuses a recipient not on the allowlist: 422 recipient_not_allowed on `to`', async () => {
    const error = await checkMintControls(t.db, { to: OTHER, amountWei: 1n }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecipientNotAllowedError)
    expect(error).toMatchObject({ code: 'recipient_not_allowed', issues: [{ path: 'to' }] })
  })

  it('refuses an amount above the per-order limit, naming the figures in oz', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('500'), dailyCapWei: null })
    await expect(checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('500') })).resolves.toBeDefined()
    const error = await checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('500.001') }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OverLimitError)
    expect(error).toMatchObject({ code: 'over_limit', limit: 'max_order' })
    expect((error as Error).message).toBe('The order of 500.001 oz is above the per-order limit of 500.000 oz.')
  })

  it('counts in-flight orders, orders mined and requests awaiting approval in the last 24 h, nothing else', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('1000') })
    for (const status of ['confirmed', 'pending', 'submitted', 'awaiting_approval'] as const) {
      const order = await insertOrder(t.db, { requestedBy: u.staff.id, status, barsFineOz: ['100.000'] })
      if (status === 'confirmed')
        await t.db.execute(sql`update mint_orders set confirmed_at = now() where id = ${order.id}`)
    }
    for (const status of ['failed', 'cancelled', 'rejected'] as const) {
      await insertOrder(t.db, { requestedBy: u.staff.id, status, barsFineOz: ['100.000'] })
    }
    const old = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'confirmed', barsFineOz: ['100.000'] })
    await t.db.execute(sql`update mint_orders set created_at = now() - interval '2 days',
      confirmed_at = now() - interval '24 hours 1 minute' where id = ${old.id}`)

    await expect(checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('600') })).resolves.toEqual({
      usedWei: ozToWei('400'),
    })
    const error = await checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('600.001') }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OverLimitError)
    expect(error).toMatchObject({ limit: 'daily_cap', usedWei: ozToWei('400'), limitWei: ozToWei('1000') })
    expect((error as Error).message).toContain('rolling 24 h cap of 1000.000 oz')
    expect((error as Error).message).toContain('400.000 oz were minted or requested')
  })

  it('counts an order from its approval and signing, not from its request', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('1000') })
    const monthAgo = sql`now() - interval '30 days'`
    // requested a month ago, approved now: pending, counted whatever its age
    const approved = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending', barsFineOz: ['100.000'] })
    // requested a month ago, signed and mined an hour ago: counted
    const mined = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'confirmed', barsFineOz: ['200.000'] })
    // requested 25 h ago, still awaiting approval: not counted until it is approved
    const waiting = await insertOrder(t.db, {
      requestedBy: u.staff.id,
      status: 'awaiting_approval',
      barsFineOz: ['300.000'],
    })
    await t.db.execute(
      sql`update mint_orders set created_at = ${monthAgo}, approved_at = now() where id = ${approved.id}`,
    )
    await t.db.execute(
      sql`update mint_orders set created_at = ${monthAgo}, confirmed_at = now() - interval '1 hour' where id = ${mined.id}`,
    )
    await t.db.execute(sql`update mint_orders set created_at = now() - interval '25 hours' where id = ${waiting.id}`)
    await expect(checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('1') })).resolves.toEqual({
      usedWei: ozToWei('300'),
    })
  })

  it('a month of queued requests, each under the cap, approved at once: approvals stop once the cap is reached', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('1000') })
    const queued: string[] = []
    for (let day = 1; day <= 30; day++) {
      const order = await insertOrder(t.db, {
        requestedBy: u.staff.id,
        status: 'awaiting_approval',
        barsFineOz: ['100.000'],
      })
      await t.db.execute(
        sql`update mint_orders set created_at = now() - make_interval(days => ${day}) where id = ${order.id}`,
      )
      queued.push(order.id)
    }
    // each as the approval does it (lib/web/approvals/approveMintOrder): the controls with the cap's lock,
    // then the order pending with approved_at, in one transaction; all 30 at once
    const outcomes = await Promise.allSettled(
      queued.map((orderId) =>
        t.db.transaction(async (tx) => {
          await checkMintControls(tx, { to: ALLOWED, amountWei: ozToWei('100'), excludeOrderId: orderId })
          await tx.execute(sql`update mint_orders set status = 'pending', approved_at = now() where id = ${orderId}`)
        }),
      ),
    )
    const refused = outcomes.filter((o) => o.status === 'rejected')
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10)
    expect(refused).toHaveLength(20)
    for (const r of refused) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(OverLimitError)
    const [row] = await t.db.execute<{ n: number; oz: string }>(sql`
      select count(*)::int as n, (sum(amount_wei) / 10^18)::numeric(20, 3)::text as oz from mint_orders where status = 'pending'`)
    expect(row).toEqual({ n: 10, oz: '1000.000' })
  })

  it('leaves the order being checked out of the total (excludeOrderId)', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('100') })
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending', barsFineOz: ['100.000'] })
    await expect(checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('100') })).rejects.toBeInstanceOf(
      OverLimitError,
    )
    await expect(
      checkMintControls(t.db, { to: ALLOWED, amountWei: ozToWei('100'), excludeOrderId: order.id }),
    ).resolves.toEqual({ usedWei: 0n })
  })

  it('serialises the cap: of two transactions that would together pass it, the second waits and then refuses', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('150') })
    let releaseFirst: () => void = () => {}
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve))
    let firstChecked: () => void = () => {}
    const checked = new Promise<void>((resolve) => (firstChecked = resolve))
    const first = t.db.transaction(async (tx) => {
      const order = await insertOrder(tx, { requestedBy: u.staff.id, barsFineOz: ['100.000'] })
      await checkMintControls(tx, { to: ALLOWED, amountWei: ozToWei('100'), excludeOrderId: order.id })
      firstChecked()
      await firstHolds
    })
    await checked
    let secondDone = false
    const second = t.db
      .transaction(async (tx) => {
        const order = await insertOrder(tx, { requestedBy: u.staff.id, barsFineOz: ['100.000'] })
        await checkMintControls(tx, { to: ALLOWED, amountWei: ozToWei('100'), excludeOrderId: order.id })
      })
      .finally(() => (secondDone = true))
    await new Promise((r) => setTimeout(r, 300))
    expect(secondDone).toBe(false) // waiting for the first one's lock
    releaseFirst()
    await first
    await expect(second).rejects.toBeInstanceOf(OverLimitError)
    const [row] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from mint_orders`)
    expect(row?.n).toBe(1)
  })
})

describe('checkMintControlsOfOrders (a send batch, one statement)', () => {
  it('gives each order the verdict checkMintControls gives it alone: passes, recipient refused, over the per-order limit, over the cap', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('500'), dailyCapWei: ozToWei('800') })
    const pass = await insertOrder(t.db, { requestedBy: u.staff.id, to: ALLOWED, barsFineOz: ['100.000'] })
    const stranger = await insertOrder(t.db, { requestedBy: u.staff.id, to: OTHER, barsFineOz: ['100.000'] })
    const large = await insertOrder(t.db, { requestedBy: u.staff.id, to: ALLOWED, barsFineOz: ['500.001'] })
    const orders = [pass, stranger, large].map((o) => ({ orderId: o.id, to: o.to, amountWei: o.amountWei }))
    const verdicts = await checkMintControlsOfOrders(t.db, { orders })
    expect(verdicts.get(pass.id)).toBeNull()
    expect(verdicts.get(stranger.id)).toBeInstanceOf(RecipientNotAllowedError)
    expect(verdicts.get(large.id)).toMatchObject({ code: 'over_limit', limit: 'max_order' })
    for (const o of orders) {
      const alone = await checkMintControls(t.db, {
        to: o.to,
        amountWei: o.amountWei,
        excludeOrderId: o.orderId,
        lock: false,
      }).then(
        () => null,
        (e: unknown) => e,
      )
      expect(alone?.constructor, `order ${o.orderId}`).toBe(verdicts.get(o.orderId)?.constructor)
    }
    // 100 + 100 + 500.001 of the others in the last 24 h: a 100 oz order is over the 800 oz cap
    const capped = await insertOrder(t.db, { requestedBy: u.staff.id, to: ALLOWED, barsFineOz: ['100.000'] })
    const more = await checkMintControlsOfOrders(t.db, {
      orders: [{ orderId: capped.id, to: ALLOWED, amountWei: ozToWei('100') }],
    })
    expect(more.get(capped.id)).toMatchObject({ code: 'over_limit', limit: 'daily_cap' })
    expect(await checkMintControlsOfOrders(t.db, { orders: [] })).toEqual(new Map())
  })
})

describe('a connection that requires the mint limits (the production worker: createDb requireMintLimits)', () => {
  it('refuses every order while either limit is unset (SQLSTATE MDL01), the batch check too; passes once both are set', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, to: ALLOWED, barsFineOz: ['100.000'] })
    const check = { to: ALLOWED, amountWei: ozToWei('100'), excludeOrderId: order.id, lock: false }
    const worker = createDb({ url: t.roleUrl('worker'), max: 1, name: 'mintdesk-worker-test', requireMintLimits: true })
    try {
      for (const limits of [
        { maxOrderWei: null, dailyCapWei: null },
        { maxOrderWei: ozToWei('500'), dailyCapWei: null },
        { maxOrderWei: null, dailyCapWei: ozToWei('5000') },
      ]) {
        await setTestMintLimits(t.db, limits)
        const error = await checkMintControls(worker.db, check).catch((e: unknown) => e)
        expect(
          sqlStateOf(error),
          JSON.stringify(limits, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
        ).toBe('MDL01')
        const batch = await checkMintControlsOfOrders(worker.db, {
          orders: [{ orderId: order.id, to: ALLOWED, amountWei: ozToWei('100') }],
        }).catch((e: unknown) => e)
        expect(sqlStateOf(batch)).toBe('MDL01')
        // a connection that does not require them (dev, tests, the web) passes it: unset is unlimited
        await expect(checkMintControls(t.db, check)).resolves.toBeDefined()
      }
      await setTestMintLimits(t.db, { maxOrderWei: ozToWei('500'), dailyCapWei: ozToWei('5000') })
      await expect(checkMintControls(worker.db, check)).resolves.toEqual({ usedWei: 0n })
    } finally {
      await worker.close()
    }
  })
})

/** The SQLSTATE of a database error, Drizzle's wrapper or the driver's own. */
function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as Error & { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}
