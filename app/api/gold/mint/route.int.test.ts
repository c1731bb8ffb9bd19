import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { allowRecipients } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import type { TestUsers } from '@/tests/helpers/users'

// API tests through the real route handlers, the real wrapper and a real database.
// Only the session is faked: next-auth's cookie is the one thing a Request here lacks.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  list: typeof import('./route')
  one: typeof import('./[orderId]/route')
}

let t: TestDatabase
let u: TestUsers
let r: Routes
let route: RouteTest
let serial = 0

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  u = route.u
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
  r = { list: await import('./route'), one: await import('./[orderId]/route') }
})

afterAll(async () => {
  await route?.close()
})

beforeEach(() => {
  signInAs(u.staff)
})

/** A valid request whose bars are on the vault's bar list (free, unless a test used them). */
async function freshRequest(bars = 1) {
  const request = buildMintRequest({ bars: Array.from({ length: bars }, () => ({ serial: `API-${++serial}` })) })
  await stockBarsOf(t.db, request)
  return request
}

function post(body: unknown, init: { headers?: Record<string, string>; raw?: string } = {}): Promise<Response> {
  return r.list.POST(routeRequest('/api/gold/mint', { method: 'POST', body: init.raw ?? body, headers: init.headers }))
}

function getList(query = ''): Promise<Response> {
  return r.list.GET(routeRequest(`/api/gold/mint${query}`))
}

function getOne(orderId: string): Promise<Response> {
  return r.one.GET(routeRequest(`/api/gold/mint/${orderId}`), routeParams({ orderId }))
}

async function orderCount(): Promise<number> {
  const rows = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from mint_orders`)
  return rows[0]?.n ?? 0
}

describe('POST /api/gold/mint', () => {
  it('202 awaiting_approval with orderId and statusUrl, no jobId (APPROVAL_THRESHOLD_OZ 0: every order); the order reads back through GET', async () => {
    const res = await post(await freshRequest(2))
    expect(res.status).toBe(202)
    const body = (await res.json()) as { orderId: string; status: string; statusUrl: string }
    expect(body).toEqual({
      orderId: expect.any(String),
      status: 'awaiting_approval',
      statusUrl: `/api/gold/mint/${body.orderId}`,
    })
    expect(res.headers.get('location')).toBe(body.statusUrl)

    const one = await getOne(body.orderId)
    expect(one.status).toBe(200)
    expect(await one.json()).toMatchObject({
      orderId: body.orderId,
      status: 'awaiting_approval',
      amount: '802.168',
      requestedBy: u.staff.email,
      decision: null,
      tx: null,
    })
  })

  it('no mint_send job until a second person approves (app/api/gold/mint/[orderId]/approve: the job and its MAX_ATTEMPTS)', async () => {
    const body = (await (await post(await freshRequest())).json()) as { orderId: string }
    const rows = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where key = ${`mint_send:${body.orderId}`}`,
    )
    expect(rows[0]?.n).toBe(0)
  })

  it('401 unauthenticated without a session', async () => {
    signInAs(null)
    expect(await errorOf(await post(await freshRequest()))).toMatchObject({ status: 401, code: 'unauthenticated' })
  })

  it('403 forbidden for a cross-origin POST', async () => {
    const before = await orderCount()
    expect(
      await errorOf(await post(await freshRequest(), { headers: { origin: 'https://evil.example' } })),
    ).toMatchObject({
      status: 403,
      code: 'forbidden',
    })
    expect(await orderCount()).toBe(before)
  })

  it('415 unsupported_media_type when not JSON', async () => {
    expect(
      await errorOf(await post(await freshRequest(), { headers: { 'content-type': 'text/plain' } })),
    ).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
    })
  })

  it('400 malformed_json', async () => {
    expect(await errorOf(await post(null, { raw: '{"to": ' }))).toMatchObject({ status: 400, code: 'malformed_json' })
  })

  it('413 payload_too_large over 64 KiB', async () => {
    const big = (await freshRequest()) as { vaultProof: { vault: string } }
    expect(
      await errorOf(await post(null, { raw: JSON.stringify(big).replace('"LDN-1"', `"${'x'.repeat(70_000)}"`) })),
    ).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    })
  })

  it('422 validation_failed with each issue and its path, writing nothing', async () => {
    const before = await orderCount()
    const request = (await freshRequest(2)) as { amount: string; vaultProof: { bars: { fineOz: string }[] } }
    const bar = request.vaultProof.bars[1]
    if (bar) bar.fineOz = '401.085'
    request.amount = '1'
    const error = await errorOf(await post(request))
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' })
    expect(error.issues?.map((i) => i.path)).toEqual(['vaultProof.bars.1.fineOz', 'amount'])
    expect(await orderCount()).toBe(before)
  })

  it('422 for prototype-pollution keys, not a 500', async () => {
    const raw = JSON.stringify(await freshRequest()).replace(/^\{/, '{"__proto__":{"admin":true},')
    const error = await errorOf(await post(null, { raw }))
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      issues: [{ path: '', message: 'unknown field: __proto__' }],
    })
  })

  it.each(['', 'k'.repeat(129), 'caf\u00e9'])('422 for a bad Idempotency-Key header: %j', async (key) => {
    const headers = new Headers()
    try {
      headers.set('idempotency-key', key)
    } catch {
      return // not even a valid header value: fetch would refuse to send it
    }
    const error = await errorOf(await post(await freshRequest(), { headers: { 'idempotency-key': key } }))
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', issues: [{ path: 'Idempotency-Key' }] })
  })

  it('409 bar_already_used names the bar', async () => {
    const request = await freshRequest()
    expect((await post(request)).status).toBe(202)
    const error = await errorOf(await post(request))
    const serialOfBar = (request as { vaultProof: { bars: { serial: string }[] } }).vaultProof.bars[0]?.serial
    expect(error).toMatchObject({ status: 409, code: 'bar_already_used', issues: [{ path: 'vaultProof.bars.0' }] })
    expect(error.message).toContain(serialOfBar)
  })

  it("422 bar_not_in_vault names each bar that is not on the vault's bar list, writing nothing", async () => {
    const before = await orderCount()
    const listed = await freshRequest()
    const request = buildMintRequest({
      bars: [{ serial: listed.vaultProof.bars[0]!.serial }, { serial: 'NEVER-LISTED' }],
    })
    const error = await errorOf(await post(request))
    expect(error).toMatchObject({
      status: 422,
      code: 'bar_not_in_vault',
      issues: [
        {
          path: 'vaultProof.bars.1',
          message: 'bar NEVER-LISTED (Valcambi SA) is not in the latest bar list of vault LDN-1',
        },
      ],
    })
    expect(await orderCount()).toBe(before)
  })

  it('422 bar_mismatch when a given weight differs from the bar list; 202 when the weights are left out', async () => {
    const listed = await freshRequest()
    const bar = listed.vaultProof.bars[0]!
    const wrong = buildMintRequest({ bars: [{ serial: bar.serial, grossOz: '401.000' }] })
    expect(await errorOf(await post(wrong))).toMatchObject({
      status: 422,
      code: 'bar_mismatch',
      issues: [
        { path: 'vaultProof.bars.0.grossOz', message: 'must be 401.125 as in the bar list (got 401.000)' },
        { path: 'vaultProof.bars.0.fineOz', message: 'must be 401.084 as in the bar list (got 400.959)' },
      ],
    })
    const named = {
      ...listed,
      vaultProof: { ...listed.vaultProof, bars: [{ serial: bar.serial, refiner: bar.refiner }] },
    }
    expect((await post(named)).status).toBe(202)
  })

  it('Idempotency-Key: a replay answers 202 with the first answer; another body is a 409 idempotency_conflict', async () => {
    const request = await freshRequest()
    const first = await post(request, { headers: { 'idempotency-key': 'api-key-1' } })
    const again = await post(request, { headers: { 'idempotency-key': 'api-key-1' } })
    expect(first.status).toBe(202)
    expect(again.status).toBe(202)
    expect(await again.json()).toEqual(await first.json())
    const conflict = await errorOf(await post(await freshRequest(), { headers: { 'idempotency-key': 'api-key-1' } }))
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict' })
  })
})

describe('GET /api/gold/mint/{orderId}', () => {
  it("404 for another staff member's order, 200 for an admin", async () => {
    signInAs(u.otherStaff)
    const { orderId } = (await (await post(await freshRequest())).json()) as { orderId: string }
    signInAs(u.staff)
    expect(await errorOf(await getOne(orderId))).toMatchObject({ status: 404, code: 'not_found' })
    signInAs(u.admin)
    expect((await getOne(orderId)).status).toBe(200)
  })

  it('404 (not 500) for a malformed id', async () => {
    expect(await errorOf(await getOne('not-a-uuid'))).toMatchObject({ status: 404, code: 'not_found' })
  })

  it('401 without a session', async () => {
    signInAs(null)
    expect(await errorOf(await getOne(crypto.randomUUID()))).toMatchObject({ status: 401, code: 'unauthenticated' })
  })
})

describe('GET /api/gold/mint', () => {
  it('lists newest first with a cursor', async () => {
    signInAs(u.admin)
    for (let i = 0; i < 3; i++) expect((await post(await freshRequest())).status).toBe(202)
    const page1 = (await (await getList('?limit=2')).json()) as {
      items: { orderId: string }[]
      nextCursor: string | null
    }
    expect(page1.items).toHaveLength(2)
    expect(page1.nextCursor).toEqual(expect.any(String))
    const page2 = (await (await getList(`?limit=2&cursor=${page1.nextCursor}`)).json()) as {
      items: { orderId: string }[]
    }
    expect(page2.items.length).toBeGreaterThan(0)
    expect(page2.items.map((i) => i.orderId)).not.toContain(page1.items[0]?.orderId)
  })

  it('empty parameters count as absent', async () => {
    expect((await getList('?status=&cursor=&limit=')).status).toBe(200)
  })

  it.each([
    ['?status=done', 'status'],
    ['?limit=0', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=101', 'limit'],
    ['?cursor=%25%25%25', 'cursor'],
    // past the bigint range, and past any timestamp Postgres can hold (a 422, not a 500)
    [
      `?cursor=${Buffer.from('9999999999999999999.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url')}`,
      'cursor',
    ],
    [
      `?cursor=${Buffer.from('9000000000000000000.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url')}`,
      'cursor',
    ],
  ])('422 for %s', async (query, path) => {
    const error = await errorOf(await getList(query))
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', issues: [{ path }] })
  })
})
