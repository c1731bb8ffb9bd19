import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { encode } from 'next-auth/jwt'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { users } from '@/db/schema/users'
import type { UserRole } from '@/lib/web/auth/SessionUser'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'

// POST /api/gold/mint checks the session against the user's row inside the order's own statement (create_mint_order's
// first step), not in the wrapper. Nothing of the auth path is faked but the request scope: each caller holds a real
// session cookie (next-auth's JWE) that the real getSessionClaims / getSessionUser decrypt; the row is the real users
// table, the route runs as the web's own role. The client's contract is the wrapper's: 401 for a disabled or revoked
// session, 403 for a role the row does not have, in the wrapper's order of checks, and nothing written.

const scope = vi.hoisted(() => ({ cookie: null as string | null }))
const cookieOfCall = new AsyncLocalStorage<string | null>()
vi.mock('next/headers', () => ({
  headers: async () => {
    const cookie = cookieOfCall.getStore() ?? scope.cookie
    return new Headers(cookie ? { cookie } : {})
  },
}))

let route: RouteTest
let t: TestDatabase
let POST: typeof import('./route')['POST']
let adminId: string
let serial = 0
let warn: MockInstance<typeof console.warn>

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  adminId = route.u.admin.id
  await allowRecipients(t.db, [TEST_RECIPIENT])
  POST = (await import('./route')).POST
})

afterAll(async () => {
  await route?.close()
})

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})

afterEach(() => {
  warn.mockRestore()
})

/** A user of its own (the tests change rows) and a cookie for its session as signed in now. */
async function signedIn(role: UserRole = 'staff'): Promise<{ id: string; cookie: string; sid: string }> {
  const email = `sis-${++serial}@mintdesk.test`
  const [row] = await t.db.insert(users).values({ email, name: email, role }).returning({ id: users.id })
  if (!row) throw new Error('no user')
  const { sessionCookie } = await import('@/lib/web/auth/sessionCookie')
  const { cookieName, secret } = sessionCookie()
  // the claims nextAuthConfig's jwt callback writes at sign-in
  const sid = randomUUID()
  const token = { id: row.id, sub: row.id, email, role, sv: 0, authTime: Math.floor(Date.now() / 1000) - 60, sid }
  return { id: row.id, cookie: `${cookieName}=${await encode({ token, secret, salt: cookieName })}`, sid }
}

async function asAdmin(userId: string, change: { role?: UserRole; disabled?: boolean }) {
  const { updateUser } = await import('@/lib/web/users/updateUser')
  const { getWebDb } = await import('@/lib/web/webProcess')
  await updateUser(getWebDb().db, { userId, change, actor: { id: adminId, email: 'admin@mintdesk.test' } })
}

async function freshRequest() {
  const request = buildMintRequest({ bars: [{ serial: `SIS-${++serial}` }] })
  await stockBarsOf(t.db, request)
  return request
}

function post(cookie: string, body: unknown, p: { origin?: string; raw?: string } = {}): Promise<Response> {
  return cookieOfCall.run(cookie, () =>
    POST(routeRequest('/api/gold/mint', { method: 'POST', body: p.raw ?? body, origin: p.origin })),
  )
}

/** every row an intake can write, counted */
async function written() {
  const [row] = await t.db.execute<Record<string, number>>(sql`
    select (select count(*)::int from mint_orders) as orders,
           (select count(*)::int from mint_order_bars) as links,
           (select count(*)::int from vault_bars where status <> 'available' or order_id is not null) as held,
           (select count(*)::int from graphile_worker._private_jobs) as jobs,
           (select count(*)::int from job_records) as records,
           (select count(*)::int from job_events) as events,
           (select count(*)::int from audit_log where action like 'mint.%') as audits,
           (select count(*)::int from notification_events) as notifications,
           (select count(*)::int from sqs_outbox) as outbox`)
  return row
}

/** The answer, and that nothing was written meanwhile. */
async function refusedWritingNothing(res: () => Promise<Response>) {
  const before = await written()
  const answer = await errorOf(await res())
  expect(await written()).toEqual(before)
  return answer
}

/** the 'session refused' lines logged, as { reason, userId } */
const refusalsLogged = () =>
  warn.mock.calls
    .map(([line]) => JSON.parse(String(line)) as { msg?: string; reason?: string; userId?: string })
    .filter((l) => l.msg === 'session refused')
    .map(({ reason, userId }) => ({ reason, userId }))

describe('POST /api/gold/mint: the session is checked by the order’s own statement', () => {
  it('a standing session: 202, in ONE statement to Postgres (the row is not read beforehand)', async () => {
    const { cookie } = await signedIn()
    const request = await freshRequest()
    const { getWebDb } = await import('@/lib/web/webProcess')
    // every statement of the web's pool goes through postgres.js's unsafe (Drizzle's queries, the
    // session row's and the intake's named statements alike): counting its calls counts them
    const unsafe = vi.spyOn(getWebDb().db.$client, 'unsafe')
    try {
      const res = await post(cookie, request)
      expect(res.status).toBe(202)
      expect(unsafe).toHaveBeenCalledTimes(1)
      expect(String(unsafe.mock.calls[0]?.[0])).toContain('from create_mint_order(')
    } finally {
      unsafe.mockRestore()
    }
  })

  it('a user disabled mid-session (the row only): 401, nothing written, the reason logged', async () => {
    const { id, cookie } = await signedIn()
    await t.db.execute(sql`update users set disabled = true where id = ${id}::uuid`)
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
    expect(refusalsLogged()).toEqual([{ reason: 'disabled', userId: id }])
  })

  it('a session signed out (its id in revoked_sessions), its cookie replayed: 401 signed_out, nothing written', async () => {
    const { id, cookie, sid } = await signedIn()
    const { revokeSession } = await import('@/lib/web/auth/revokeSession')
    const { getWebDb } = await import('@/lib/web/webProcess')
    await revokeSession(getWebDb().db, { claims: { id, sessionId: sid, authTime: Math.floor(Date.now() / 1000) } })
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
    expect(refusalsLogged()).toEqual([{ reason: 'signed_out', userId: id }])
  })

  it('a user disabled by an admin (session_version bumped): 401, nothing written', async () => {
    const { id, cookie } = await signedIn()
    await asAdmin(id, { disabled: true })
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
  })

  it('a role changed by an admin (staff -> admin, session_version bumped): 401 revoked, nothing written', async () => {
    const { id, cookie } = await signedIn()
    await asAdmin(id, { role: 'admin' })
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
    expect(refusalsLogged()).toEqual([{ reason: 'revoked', userId: id }])
  })

  it('demoted to approver while the cookie still says staff: 401 (the demotion bumped the version), nothing written', async () => {
    const { id, cookie } = await signedIn()
    await asAdmin(id, { role: 'approver' })
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
  })

  it('a row role the route does not allow with the version unchanged (set in SQL, no bump): 403, nothing written', async () => {
    const { id, cookie } = await signedIn()
    await t.db.execute(sql`update users set role = 'approver' where id = ${id}::uuid`)
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 403,
      code: 'forbidden',
    })
  })

  it('a user gone from the table: 401, nothing written', async () => {
    const { id, cookie } = await signedIn()
    await t.db.execute(sql`delete from users where id = ${id}::uuid`)
    expect(await refusedWritingNothing(async () => post(cookie, await freshRequest()))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    })
    expect(refusalsLogged()).toEqual([{ reason: 'unknown_user', userId: id }])
  })

  describe("the wrapper's order of checks holds: 401 before the request's own refusal", () => {
    it('a disabled user sending an invalid body: 401, not 422', async () => {
      const { id, cookie } = await signedIn()
      await t.db.execute(sql`update users set disabled = true where id = ${id}::uuid`)
      expect(await refusedWritingNothing(() => post(cookie, { to: '0x12' }))).toMatchObject({
        status: 401,
        code: 'unauthenticated',
      })
      // the same body from a standing session: its 422
      const standing = await signedIn()
      expect(await refusedWritingNothing(() => post(standing.cookie, { to: '0x12' }))).toMatchObject({
        status: 422,
        code: 'validation_failed',
      })
    })

    it('a disabled user with a foreign Origin: 401, not 403', async () => {
      const { id, cookie } = await signedIn()
      await t.db.execute(sql`update users set disabled = true where id = ${id}::uuid`)
      expect(
        await refusedWritingNothing(async () => post(cookie, await freshRequest(), { origin: 'https://evil.example' })),
      ).toMatchObject({
        status: 401,
        code: 'unauthenticated',
      })
    })

    it('a disabled user sending malformed JSON: 401, not 400; a demoted one (no bump): 403', async () => {
      const disabled = await signedIn()
      await t.db.execute(sql`update users set disabled = true where id = ${disabled.id}::uuid`)
      expect(await refusedWritingNothing(() => post(disabled.cookie, null, { raw: '{"to": ' }))).toMatchObject({
        status: 401,
      })
      const demoted = await signedIn()
      await t.db.execute(sql`update users set role = 'approver' where id = ${demoted.id}::uuid`)
      expect(await refusedWritingNothing(() => post(demoted.cookie, null, { raw: '{"to": ' }))).toMatchObject({
        status: 403,
        code: 'forbidden',
      })
    })

    it('no session at all: 401; a session claiming approver: 403 (the row says approver too)', async () => {
      expect(
        await errorOf(
          await cookieOfCall.run(null, () => POST(routeRequest('/api/gold/mint', { method: 'POST', body: {} }))),
        ),
      ).toMatchObject({ status: 401 })
      const approver = await signedIn('approver')
      expect(await refusedWritingNothing(async () => post(approver.cookie, await freshRequest()))).toMatchObject({
        status: 403,
        code: 'forbidden',
      })
    })
  })
})
