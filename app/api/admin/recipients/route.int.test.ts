import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ozToWei } from '@/lib/money/ozToWei'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { confirmChange } from '@/tests/helpers/controlChanges'
import type { TestDatabase } from '@/tests/helpers/db'
import { fakeSession, signInAs } from '@/tests/helpers/fakeSession'
import { setTestMintLimits } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser, type TestUsers } from '@/tests/helpers/users'

// The mint controls' API (docs/api.md "Recipients and limits") and their refusals at
// intake, through the real route handlers, the real wrapper and a real database, as the
// web's role. Only the session is faked. Each change is confirmed by a second admin (admin2).
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  recipients: typeof import('./route')
  recipient: typeof import('./[address]/route')
  limits: typeof import('@/app/api/admin/limits/route')
  mint: typeof import('@/app/api/gold/mint/route')
  confirm: typeof import('@/app/api/admin/changes/[changeId]/confirm/route')
}

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ALICE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const BOB = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
let t: TestDatabase
let u: TestUsers
let approver: SessionUser
let admin2: SessionUser
let r: Routes
let route: RouteTest
let serial = 0

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  u = route.u
  approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  admin2 = { ...(await insertUser(t.db, 'admin')), role: 'admin' }
  process.env.TOKEN_ADDRESS = TOKEN
  r = {
    recipients: await import('./route'),
    recipient: await import('./[address]/route'),
    limits: await import('@/app/api/admin/limits/route'),
    mint: await import('@/app/api/gold/mint/route'),
    confirm: await import('@/app/api/admin/changes/[changeId]/confirm/route'),
  }
})

afterAll(async () => {
  await route?.close()
})

beforeEach(async () => {
  signInAs(u.admin)
  await t.db.execute(sql`delete from allowed_recipients`)
  await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
})

const json = (method: string, path: string, body?: unknown) => routeRequest(path, { method, body })
/** Asks as the signed-in admin; a 202 is confirmed by admin2 and the confirm answered, the asker signed in again. */
async function confirmed(asked: Response): Promise<Response> {
  if (asked.status !== 202) return asked
  const asker = fakeSession.user
  const res = await confirmChange({ confirmRoute: r.confirm, asked, confirmer: admin2 })
  signInAs(asker)
  return res
}
/** The change's `result`: what the operation it applied answers. */
const resultOf = async (res: Response) => ((await res.json()) as { result: unknown }).result
const addRecipient = async (body: unknown) =>
  confirmed(await r.recipients.POST(json('POST', '/api/admin/recipients', body)))
const removeRecipient = async (address: string) =>
  confirmed(await r.recipient.DELETE(json('DELETE', `/api/admin/recipients/${address}`), routeParams({ address })))
const putLimits = async (body: unknown) => confirmed(await r.limits.PUT(json('PUT', '/api/admin/limits', body)))

async function audit(action: string) {
  return t.db.execute<{ actor_email: string; target_id: string; detail: unknown }>(
    sql`select actor_email, target_id, detail from audit_log where action = ${action} order by id`,
  )
}

async function counts() {
  const [row] = await t.db.execute<{ orders: number; reserved: number; jobs: number }>(sql`
    select (select count(*)::int from mint_orders) as orders,
           (select count(*)::int from vault_bars where status <> 'available') as reserved,
           (select count(*)::int from graphile_worker._private_jobs) as jobs`)
  return row
}

/** A mint request to `to` whose `bars` bars (401.084 oz each) are on the vault's list. */
async function mintRequest(to: string, bars = 1) {
  const request = buildMintRequest({ to, bars: Array.from({ length: bars }, () => ({ serial: `CTL-${++serial}` })) })
  await stockBarsOf(t.db, request)
  return request
}

describe('who may use the controls API', () => {
  const calls = () => [
    () => r.recipients.GET(json('GET', '/api/admin/recipients')),
    () => addRecipient({ address: ALICE, label: 'Alice' }),
    () => removeRecipient(ALICE),
    () => r.limits.GET(json('GET', '/api/admin/limits')),
    () => putLimits({ maxOrderOz: '1', dailyCapOz: '2' }),
  ]

  it('anonymous: 401; staff and approvers: 403; nothing changes', async () => {
    for (const [user, status] of [
      [null, 401],
      [u.staff, 403],
      [approver, 403],
    ] as const) {
      signInAs(user)
      for (const call of calls()) expect((await call()).status).toBe(status)
    }
    expect(await t.db.execute(sql`select 1 from allowed_recipients`)).toHaveLength(0)
    expect(await t.db.execute(sql`select 1 from mint_limits where max_order_wei is not null`)).toHaveLength(0)
    expect(await t.db.execute(sql`select 1 from control_changes`)).toHaveLength(0)
  })
})

describe('POST /api/admin/recipients · GET · DELETE /api/admin/recipients/{address}', () => {
  it('202, confirmed by a second admin: stored lower case, answered checksummed; lower-case input accepted; listed; audited', async () => {
    const res = await addRecipient({ address: ALICE.toLowerCase(), label: '  Alice   Ltd ' })
    expect(res.status).toBe(200)
    expect(await resultOf(res)).toEqual({
      address: ALICE,
      label: 'Alice Ltd',
      addedBy: admin2.email,
      addedAt: expect.any(String),
    })
    const [row] = await t.db.execute<{ address: string; added_by: string }>(
      sql`select address, added_by from allowed_recipients`,
    )
    expect(row).toEqual({ address: ALICE.toLowerCase(), added_by: admin2.id })
    const list = (await (await r.recipients.GET(json('GET', '/api/admin/recipients'))).json()) as { items: unknown[] }
    expect(list.items).toEqual([
      { address: ALICE, label: 'Alice Ltd', addedBy: admin2.email, addedAt: expect.any(String) },
    ])
    expect(await audit('recipient.add')).toEqual([
      {
        actor_email: admin2.email,
        target_id: ALICE,
        detail: { label: 'Alice Ltd', changeId: expect.any(String), requestedBy: u.admin.email },
      },
    ])
  })

  it('409 conflict for an address already listed, in any spelling; the label stays', async () => {
    expect((await addRecipient({ address: ALICE, label: 'Alice' })).status).toBe(200)
    const again = await errorOf(await addRecipient({ address: ALICE.toLowerCase(), label: 'Other' }))
    expect(again).toMatchObject({ status: 409, code: 'conflict' })
    const rows = await t.db.execute<{ label: string }>(sql`select label from allowed_recipients`)
    expect(rows).toEqual([{ label: 'Alice' }])
  })

  it('422 for a bad checksum, the zero address, the token contract, a missing label', async () => {
    const badChecksum = ALICE.replace('F79', 'f79')
    for (const [body, path] of [
      [{ address: badChecksum, label: 'x' }, 'address'],
      [{ address: '0x0000000000000000000000000000000000000000', label: 'x' }, 'address'],
      [{ address: TOKEN, label: 'token' }, 'address'],
      [{ address: TOKEN.toLowerCase(), label: 'token' }, 'address'],
      [{ address: '0x1234', label: 'x' }, 'address'],
      [{ address: ALICE, label: '' }, 'label'],
      [{ address: ALICE, label: 'x', extra: 1 }, ''],
    ] as const) {
      const error = await errorOf(await addRecipient(body))
      expect(error, JSON.stringify(body)).toMatchObject({ status: 422, code: 'validation_failed' })
      expect(
        error.issues?.map((i) => i.path),
        JSON.stringify(body),
      ).toContain(path)
    }
    expect(await t.db.execute(sql`select 1 from allowed_recipients`)).toHaveLength(0)
  })

  it('DELETE: 202, confirmed by a second admin and audited, then 404; a path that is no address: 404', async () => {
    await addRecipient({ address: BOB, label: 'Bob' })
    const res = await removeRecipient(BOB.toLowerCase())
    expect(res.status).toBe(200)
    expect(await resultOf(res)).toEqual({ address: BOB, label: 'Bob', removed: true })
    expect(await audit('recipient.remove')).toEqual([
      {
        actor_email: admin2.email,
        target_id: BOB,
        detail: { label: 'Bob', changeId: expect.any(String), requestedBy: u.admin.email },
      },
    ])
    expect((await errorOf(await removeRecipient(BOB))).status).toBe(404)
    expect((await errorOf(await removeRecipient('not-an-address'))).status).toBe(404)
  })
})

describe('GET · PUT /api/admin/limits', () => {
  it('unset limits read as null; PUT sets both once confirmed (fine oz, 3 decimals), audited with before and after; null unsets', async () => {
    const before = await (await r.limits.GET(json('GET', '/api/admin/limits'))).json()
    expect(before).toMatchObject({ maxOrderOz: null, dailyCapOz: null, last24hOz: '0.000' })
    const res = await putLimits({ maxOrderOz: '5000', dailyCapOz: '50000.125' })
    expect(res.status).toBe(200)
    expect(await resultOf(res)).toMatchObject({
      maxOrderOz: '5000.000',
      dailyCapOz: '50000.125',
      updatedBy: admin2.email,
    })
    const [row] = await t.db.execute<{ max_order_wei: string; daily_cap_wei: string }>(
      sql`select max_order_wei::text, daily_cap_wei::text from mint_limits`,
    )
    expect(row).toEqual({ max_order_wei: ozToWei('5000').toString(), daily_cap_wei: ozToWei('50000.125').toString() })
    expect(await resultOf(await putLimits({ maxOrderOz: null, dailyCapOz: '7' }))).toMatchObject({
      maxOrderOz: null,
      dailyCapOz: '7.000',
    })
    const rows = await audit('limits.set')
    const change = { changeId: expect.any(String), requestedBy: u.admin.email }
    expect(rows.at(-2)?.detail).toEqual({
      before: { maxOrderOz: null, dailyCapOz: null },
      after: { maxOrderOz: '5000.000', dailyCapOz: '50000.125' },
      ...change,
    })
    expect(rows.at(-1)?.detail).toEqual({
      before: { maxOrderOz: '5000.000', dailyCapOz: '50000.125' },
      after: { maxOrderOz: null, dailyCapOz: '7.000' },
      ...change,
    })
  })

  it('422 for zero, negatives, 4 decimals, numbers, a missing field', async () => {
    for (const body of [
      { maxOrderOz: '0', dailyCapOz: '1' },
      { maxOrderOz: '-1', dailyCapOz: '1' },
      { maxOrderOz: '1.0001', dailyCapOz: '1' },
      { maxOrderOz: 5, dailyCapOz: '1' },
      { maxOrderOz: '1' },
    ]) {
      expect(await errorOf(await putLimits(body)), JSON.stringify(body)).toMatchObject({
        status: 422,
        code: 'validation_failed',
      })
    }
  })
})

describe('POST /api/gold/mint against the controls', () => {
  beforeEach(() => {
    signInAs(u.staff)
  })
  const mint = (body: unknown) => r.mint.POST(json('POST', '/api/gold/mint', body))

  it('422 recipient_not_allowed for an address off the allowlist, on `to`; nothing written', async () => {
    const request = await mintRequest(BOB)
    const before = await counts()
    const error = await errorOf(await mint(request))
    expect(error).toMatchObject({ status: 422, code: 'recipient_not_allowed', issues: [{ path: 'to' }] })
    expect(await counts()).toEqual(before)
  })

  it('422 over_limit above the per-order limit, naming the figures; nothing written', async () => {
    signInAs(u.admin)
    await addRecipient({ address: ALICE, label: 'Alice' })
    await putLimits({ maxOrderOz: '500', dailyCapOz: '100000' })
    signInAs(u.staff)
    const request = await mintRequest(ALICE, 2) // 802.168 oz
    const before = await counts()
    const error = await errorOf(await mint(request))
    expect(error).toMatchObject({
      status: 422,
      code: 'over_limit',
      message: 'The order of 802.168 oz is above the per-order limit of 500.000 oz.',
    })
    expect(await counts()).toEqual(before)
    expect((await mint(await mintRequest(ALICE, 1))).status).toBe(202) // 401.084 oz: within it
  })

  it('422 over_limit when the rolling 24 h cap would be passed; nothing written', async () => {
    signInAs(u.admin)
    await addRecipient({ address: ALICE, label: 'Alice' })
    await putLimits({ maxOrderOz: '1000', dailyCapOz: '1000' })
    signInAs(u.staff)
    await t.db.execute(sql`delete from mint_order_bars`)
    await t.db.execute(sql`update vault_bars set status = 'available', order_id = null`)
    // the intake's mint.awaiting_approval events name the orders
    await t.db.execute(sql`delete from notification_events`)
    await t.db.execute(sql`delete from mint_orders`)
    expect((await mint(await mintRequest(ALICE, 2))).status).toBe(202) // 802.168 of 1000
    const request = await mintRequest(ALICE, 1) // + 401.084 > 1000
    const before = await counts()
    const error = await errorOf(await mint(request))
    expect(error).toMatchObject({ status: 422, code: 'over_limit' })
    expect(error.message).toContain('rolling 24 h cap of 1000.000 oz')
    expect(error.message).toContain('802.168 oz were minted or requested in the last 24 hours, 197.832 oz remain')
    expect(await counts()).toEqual(before)
  })
})
