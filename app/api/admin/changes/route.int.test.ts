import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ozToWei } from '@/lib/money/ozToWei'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiControlChange, ApiControlChangeAccepted, ApiControlChangeList } from '@/lib/web/changes/apiTypes'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { setTestMintLimits } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser, type TestUsers } from '@/tests/helpers/users'

// Control changes need a second admin (docs/api.md): every kind through the real routes, the
// real wrapper and a real database as the web's role. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  changes: typeof import('./route')
  confirm: typeof import('./[changeId]/confirm/route')
  reject: typeof import('./[changeId]/reject/route')
  recipients: typeof import('@/app/api/admin/recipients/route')
  recipient: typeof import('@/app/api/admin/recipients/[address]/route')
  limits: typeof import('@/app/api/admin/limits/route')
  user: typeof import('@/app/api/admin/users/[userId]/route')
}

const ALICE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const BOB = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
let t: TestDatabase
let u: TestUsers
let admin2: SessionUser
let admin3: SessionUser
let approver: SessionUser
let r: Routes
let route: RouteTest

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  u = route.u
  admin2 = { ...(await insertUser(t.db, 'admin')), role: 'admin' }
  admin3 = { ...(await insertUser(t.db, 'admin')), role: 'admin' }
  approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  r = {
    changes: await import('./route'),
    confirm: await import('./[changeId]/confirm/route'),
    reject: await import('./[changeId]/reject/route'),
    recipients: await import('@/app/api/admin/recipients/route'),
    recipient: await import('@/app/api/admin/recipients/[address]/route'),
    limits: await import('@/app/api/admin/limits/route'),
    user: await import('@/app/api/admin/users/[userId]/route'),
  }
})

afterAll(async () => {
  await route?.close()
})

beforeEach(async () => {
  signInAs(u.admin)
  await t.db.execute(sql`delete from allowed_recipients`)
  await t.db.execute(sql`delete from control_changes`)
  await t.db.execute(sql`update users set role = 'staff' where id = ${u.staff.id}`)
  await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
})

const req = (method: string, path: string, body?: unknown) => routeRequest(path, { method, body })
const addRecipient = (body: unknown) => r.recipients.POST(req('POST', '/api/admin/recipients', body))
const removeRecipient = (address: string) =>
  r.recipient.DELETE(req('DELETE', `/api/admin/recipients/${address}`), routeParams({ address }))
const putLimits = (body: unknown) => r.limits.PUT(req('PUT', '/api/admin/limits', body))
const patchUser = (userId: string, body: unknown) =>
  r.user.PATCH(req('PATCH', `/api/admin/users/${userId}`, body), routeParams({ userId }))
const confirm = (changeId: string) =>
  r.confirm.POST(req('POST', `/api/admin/changes/${changeId}/confirm`), routeParams({ changeId }))
const reject = (changeId: string, body: unknown) =>
  r.reject.POST(req('POST', `/api/admin/changes/${changeId}/reject`, body), routeParams({ changeId }))
const list = async (query = '') => {
  const res = await r.changes.GET(req('GET', `/api/admin/changes${query}`))
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as ApiControlChangeList
}

/** The answer of a route that asks for a change: 202 { changeId, status: awaiting_second_admin }. */
async function asked(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(202)
  const body = (await res.json()) as ApiControlChangeAccepted
  expect(body).toEqual({ changeId: expect.any(String), status: 'awaiting_second_admin' })
  return body.changeId
}

/** Confirms as `who` (admin2 unless told); expects 200 and the change applied. */
async function confirmed(changeId: string, who: SessionUser = admin2) {
  signInAs(who)
  const res = await confirm(changeId)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as ApiControlChange & { result: unknown }
}

const listed = async () =>
  (await t.db.execute<{ address: string }>(sql`select address from allowed_recipients order by address`)).map(
    (x) => x.address,
  )
const limitsRow = async () =>
  (
    await t.db.execute<{ max: string | null; cap: string | null }>(
      sql`select max_order_wei::text as max, daily_cap_wei::text as cap from mint_limits`,
    )
  )[0]
const roleOf = async (id: string) =>
  (
    await t.db.execute<{ role: string; v: number }>(sql`select role, session_version as v from users where id = ${id}`)
  )[0]
const audit = () =>
  t.db.execute<{ actor_email: string; action: string; target_type: string; detail: Record<string, unknown> }>(
    sql`select actor_email, action, target_type, detail from audit_log order by id`,
  )

describe('each kind: 202 awaiting, applied only when a second admin confirms', () => {
  it('recipient.add: nothing listed until admin2 confirms; both admins audited', async () => {
    await t.db.execute(sql`delete from audit_log`)
    const changeId = await asked(await addRecipient({ address: ALICE.toLowerCase(), label: ' Alice  Ltd ' }))
    expect(await listed()).toEqual([])
    const done = await confirmed(changeId)
    expect(done).toMatchObject({
      changeId,
      kind: 'recipient.add',
      params: { address: ALICE, label: 'Alice Ltd' },
      summary: `Add ${ALICE} (Alice Ltd) to the recipient allowlist`,
      status: 'applied',
      requestedBy: u.admin.email,
      decidedBy: admin2.email,
      result: { address: ALICE, label: 'Alice Ltd', addedBy: admin2.email },
    })
    expect(await listed()).toEqual([ALICE.toLowerCase()])
    expect(await audit()).toEqual([
      {
        actor_email: u.admin.email,
        action: 'change.propose',
        target_type: 'control_change',
        detail: { kind: 'recipient.add', params: { address: ALICE, label: 'Alice Ltd' } },
      },
      {
        actor_email: admin2.email,
        action: 'recipient.add',
        target_type: 'recipient',
        detail: { label: 'Alice Ltd', changeId, requestedBy: u.admin.email },
      },
      {
        actor_email: admin2.email,
        action: 'change.confirm',
        target_type: 'control_change',
        detail: { kind: 'recipient.add', params: { address: ALICE, label: 'Alice Ltd' }, requestedBy: u.admin.email },
      },
    ])
  })

  it('recipient.remove: listed until confirmed; confirmed again at confirm time (removed meanwhile: 404, still awaiting)', async () => {
    await t.db.execute(sql`insert into allowed_recipients (address, label) values (${BOB.toLowerCase()}, 'Bob')`)
    const first = await asked(await removeRecipient(BOB.toLowerCase()))
    const second = await asked(await removeRecipient(BOB))
    expect(await listed()).toEqual([BOB.toLowerCase()])
    expect((await confirmed(first)).result).toEqual({ address: BOB, label: 'Bob', removed: true })
    expect(await listed()).toEqual([])
    signInAs(admin2)
    expect(await errorOf(await confirm(second))).toMatchObject({ status: 404, code: 'not_found' })
    expect((await list('?status=awaiting_second_admin')).items.map((c) => c.changeId)).toEqual([second])
    // asked for when it is not listed: 404 at once, nothing stored
    signInAs(u.admin)
    expect(await errorOf(await removeRecipient(BOB))).toMatchObject({ status: 404 })
    expect((await list()).items).toHaveLength(2)
  })

  it('limits.set: the limits stay until confirmed, then both are set', async () => {
    const changeId = await asked(await putLimits({ maxOrderOz: '5000', dailyCapOz: '50000.125' }))
    expect(await limitsRow()).toEqual({ max: null, cap: null })
    const done = await confirmed(changeId)
    expect(done.summary).toBe('Set the per-order limit to 5000.000 oz and the rolling 24 h cap to 50000.125 oz')
    expect(done.result).toMatchObject({ maxOrderOz: '5000.000', dailyCapOz: '50000.125', updatedBy: admin2.email })
    expect(await limitsRow()).toEqual({
      max: ozToWei('5000').toString(),
      cap: ozToWei('50000.125').toString(),
    })
    const [row] = (await audit()).filter((a) => a.action === 'limits.set').slice(-1)
    expect(row).toMatchObject({
      actor_email: admin2.email,
      detail: { before: { maxOrderOz: null }, after: { maxOrderOz: '5000.000' }, changeId, requestedBy: u.admin.email },
    })
  })

  it("user.role: the role stays until confirmed, then changes and the user's sessions stop", async () => {
    const before = await roleOf(u.staff.id)
    const changeId = await asked(await patchUser(u.staff.id, { role: 'approver' }))
    expect(await roleOf(u.staff.id)).toEqual(before)
    const done = await confirmed(changeId)
    expect(done.summary).toBe(`Make ${u.staff.email} approver`)
    expect(done.result).toMatchObject({ id: u.staff.id, role: 'approver' })
    expect(await roleOf(u.staff.id)).toEqual({ role: 'approver', v: (before?.v ?? 0) + 1 })
    // the role they have already: 422, nothing stored
    signInAs(u.admin)
    expect(await errorOf(await patchUser(u.staff.id, { role: 'approver' }))).toMatchObject({ status: 422 })
    // disabling is not a control change: it applies at once
    const disabled = await patchUser(u.staff.id, { disabled: true })
    expect(disabled.status).toBe(200)
    expect(await disabled.json()).toMatchObject({ disabled: true })
    await patchUser(u.staff.id, { disabled: false })
    expect(await errorOf(await patchUser(u.staff.id, { role: 'admin', disabled: true }))).toMatchObject({
      status: 422,
    })
    // the author may not ask to take away their own admin role
    expect(await errorOf(await patchUser(u.admin.id, { role: 'staff' }))).toMatchObject({
      status: 409,
      code: 'self_lockout',
    })
    // nor may the confirmer confirm taking away theirs
    const demote2 = await asked(await patchUser(admin2.id, { role: 'staff' }))
    signInAs(admin2)
    expect(await errorOf(await confirm(demote2))).toMatchObject({ status: 409, code: 'self_lockout' })
    expect((await confirmed(demote2, admin3)).status).toBe('applied')
    expect((await roleOf(admin2.id))?.role).toBe('staff')
    await t.db.execute(sql`update users set role = 'admin' where id = ${admin2.id}`)
  })
})

describe('one admin alone changes nothing', () => {
  it('every kind asked for and confirmed by its author: 403 self_approval, reject too; nothing applied', async () => {
    await t.db.execute(sql`insert into allowed_recipients (address, label) values (${BOB.toLowerCase()}, 'Bob')`)
    const ids = [
      await asked(await addRecipient({ address: ALICE, label: 'Alice' })),
      await asked(await removeRecipient(BOB)),
      await asked(await putLimits({ maxOrderOz: '1', dailyCapOz: '2' })),
      await asked(await patchUser(u.staff.id, { role: 'admin' })),
    ]
    for (const id of ids) {
      expect(await errorOf(await confirm(id))).toMatchObject({ status: 403, code: 'self_approval' })
      expect(await errorOf(await reject(id, { reason: 'mine' }))).toMatchObject({ status: 403, code: 'self_approval' })
    }
    expect(await listed()).toEqual([BOB.toLowerCase()])
    expect(await limitsRow()).toEqual({ max: null, cap: null })
    expect((await roleOf(u.staff.id))?.role).toBe('staff')
    expect((await list('?status=awaiting_second_admin')).items).toHaveLength(4)
  })

  it('bad input: 4xx in the error shape, no change stored', async () => {
    for (const res of [
      await addRecipient({ address: '0x1234', label: 'x' }),
      await addRecipient({ address: ALICE, label: '' }),
      await putLimits({ maxOrderOz: '0', dailyCapOz: '1' }),
      await putLimits({ maxOrderOz: '1' }),
      await patchUser(u.staff.id, { role: 'owner' }),
    ]) {
      expect(await errorOf(res)).toMatchObject({ status: 422, code: 'validation_failed' })
    }
    expect((await errorOf(await removeRecipient('not-an-address'))).status).toBe(404)
    expect((await errorOf(await patchUser('00000000-0000-4000-8000-000000000000', { role: 'admin' }))).status).toBe(404)
    expect((await list()).items).toEqual([])
  })

  it('anonymous: 401; staff and approvers: 403 on the changes routes', async () => {
    const changeId = await asked(await putLimits({ maxOrderOz: '1', dailyCapOz: '2' }))
    for (const [user, status] of [
      [null, 401],
      [u.staff, 403],
      [approver, 403],
    ] as const) {
      signInAs(user)
      expect((await r.changes.GET(req('GET', '/api/admin/changes'))).status).toBe(status)
      expect((await confirm(changeId)).status).toBe(status)
      expect((await reject(changeId, { reason: 'no' })).status).toBe(status)
    }
    expect(await limitsRow()).toEqual({ max: null, cap: null })
  })
})

describe('reject, decide once, list', () => {
  it('reject: nothing applies, the reason is kept and audited; then confirm and reject are 409', async () => {
    const changeId = await asked(await addRecipient({ address: ALICE, label: 'Alice' }))
    signInAs(admin2)
    expect(await errorOf(await reject(changeId, { reason: '  ' }))).toMatchObject({ status: 422 })
    const res = await reject(changeId, { reason: 'not a customer of ours' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: 'rejected',
      decidedBy: admin2.email,
      reason: 'not a customer of ours',
    })
    expect(await listed()).toEqual([])
    expect(await errorOf(await confirm(changeId))).toMatchObject({ status: 409, code: 'not_awaiting_second_admin' })
    signInAs(admin3)
    expect(await errorOf(await reject(changeId, { reason: 'x' }))).toMatchObject({ status: 409 })
    const [row] = (await audit()).filter((a) => a.action === 'change.reject')
    expect(row).toMatchObject({
      actor_email: admin2.email,
      detail: { kind: 'recipient.add', requestedBy: u.admin.email, reason: 'not a customer of ours' },
    })
    expect((await errorOf(await confirm('00000000-0000-4000-8000-000000000000'))).status).toBe(404)
    expect((await errorOf(await confirm('nope'))).status).toBe(404)
  })

  it('two admins confirming at once: one applies it, the other gets 409; applied once', async () => {
    const changeId = await asked(await addRecipient({ address: ALICE, label: 'Alice' }))
    const [a, b] = await Promise.all([
      (async () => {
        signInAs(admin2)
        return confirm(changeId)
      })(),
      (async () => {
        signInAs(admin3)
        return confirm(changeId)
      })(),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    expect(await listed()).toEqual([ALICE.toLowerCase()])
    expect((await audit()).filter((x) => x.action === 'recipient.add' && x.detail.changeId === changeId)).toHaveLength(
      1,
    )
  })

  it('GET lists newest first with who asked, what changes and when; by status; in pages', async () => {
    const first = await asked(await addRecipient({ address: ALICE, label: 'Alice' }))
    const second = await asked(await putLimits({ maxOrderOz: '10', dailyCapOz: null }))
    const third = await asked(await patchUser(u.staff.id, { role: 'approver' }))
    await confirmed(second)
    signInAs(u.admin)
    const all = await list()
    expect(all.items.map((c) => c.changeId)).toEqual([third, second, first])
    expect(all.items[2]).toEqual({
      changeId: first,
      kind: 'recipient.add',
      params: { address: ALICE, label: 'Alice' },
      summary: `Add ${ALICE} (Alice) to the recipient allowlist`,
      status: 'awaiting_second_admin',
      requestedBy: u.admin.email,
      requestedAt: expect.any(String),
      decidedBy: null,
      decidedAt: null,
      reason: null,
      deadline: null,
      txHash: null,
      failureReason: null,
    })
    expect((await list('?status=awaiting_second_admin')).items.map((c) => c.changeId)).toEqual([third, first])
    expect((await list('?status=applied')).items.map((c) => c.changeId)).toEqual([second])
    const page1 = await list('?limit=2')
    expect(page1.items.map((c) => c.changeId)).toEqual([third, second])
    const page2 = await list(`?limit=2&cursor=${page1.nextCursor}`)
    expect(page2).toEqual({ items: [expect.objectContaining({ changeId: first })], nextCursor: null })
    expect(await errorOf(await r.changes.GET(req('GET', '/api/admin/changes?cursor=zzz')))).toMatchObject({
      status: 422,
    })
    expect(await errorOf(await r.changes.GET(req('GET', '/api/admin/changes?status=done')))).toMatchObject({
      status: 422,
    })
  })
})
