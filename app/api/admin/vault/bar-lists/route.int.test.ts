import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseBarList } from '@/lib/web/vault/parseBarList'
import { devCustodianSignature } from '@/scripts/stack/devCustodianSignature'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { allowRecipients } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import type { TestUsers } from '@/tests/helpers/users'

// The vault inventory API through the real route handlers, the real wrapper, a real
// database and a real chain with GoldMinter (whose registered custodian, the dev key 12,
// signs every list). Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  lists: typeof import('./route')
  bars: typeof import('@/app/api/vault/bars/route')
  mint: typeof import('@/app/api/gold/mint/route')
}

let t: TestDatabase
let u: TestUsers
let r: Routes
let route: RouteTest
let chain: ChainFixture

beforeAll(async () => {
  chain = await startChainFixture()
  process.env.RPC_URL = chain.rpcUrl
  process.env.CHAIN_ID = String(chain.chainId)
  process.env.MINTER_ADDRESS = chain.minterAddress
  route = await startRouteTest()
  t = route.t
  u = route.u
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
  r = {
    lists: await import('./route'),
    bars: await import('@/app/api/vault/bars/route'),
    mint: await import('@/app/api/gold/mint/route'),
  }
})

afterAll(async () => {
  await route?.close()
  await chain?.stop()
})

beforeEach(() => {
  signInAs(u.admin)
})

/** POSTs a list, signed by the dev custodian when it parses (a body that does not is sent unsigned) */
async function importList(
  body: BodyInit,
  { type = 'application/json', query = '' }: { type?: string; query?: string } = {},
) {
  const headers: Record<string, string> = {}
  try {
    const text = typeof body === 'string' ? body : ''
    const params = new URLSearchParams(query.replace(/^\?/, ''))
    const list = type.startsWith('text/csv')
      ? parseBarList({ format: 'csv', text, vault: params.get('vault'), asOf: params.get('asOf') })
      : parseBarList({ format: 'json', text })
    const domain = { chainId: chain.chainId, verifyingContract: chain.minterAddress }
    headers['custodian-signature'] = (await devCustodianSignature(list, domain)).signature
  } catch {
    // not a list: its refusal is what the test looks at
  }
  return r.lists.POST(routeRequest(`/api/admin/vault/bar-lists${query}`, { method: 'POST', type, body, headers }))
}

const getLists = (query = '') => r.lists.GET(routeRequest(`/api/admin/vault/bar-lists${query}`))
const getBars = (query = '') => r.bars.GET(routeRequest(`/api/vault/bars${query}`))

const bar = (serial: string, extra: Record<string, unknown> = {}) => ({
  serial,
  refiner: 'Valcambi SA',
  year: 2025,
  grossOz: '401.125',
  fineness: '999.9',
  ...extra,
})

describe('POST /api/admin/vault/bar-lists', () => {
  it('422 invalid_signature without a Custodian-Signature or with one by another key; nothing written', async () => {
    const body = JSON.stringify({ vault: 'API-SIG', asOf: '2026-01-01T06:00:00Z', bars: [bar('S1')] })
    const post = (headers: Record<string, string>) =>
      r.lists.POST(routeRequest('/api/admin/vault/bar-lists', { method: 'POST', body, headers }))
    expect(await errorOf(await post({}))).toMatchObject({ status: 422, code: 'invalid_signature' })
    expect(await errorOf(await post({ 'custodian-signature': `0x${'11'.repeat(65)}` }))).toMatchObject({
      status: 422,
      code: 'invalid_signature',
    })
    const lists = await t.db.execute(sql`select 1 from bar_lists where vault = 'API-SIG'`)
    expect(lists).toHaveLength(0)
  })

  it('201 for a JSON list, with the counts of API.md; audited', async () => {
    const res = await importList(
      JSON.stringify({ vault: 'API-V1', asOf: '2026-01-01T06:00:00Z', bars: [bar('J1'), bar('J2')] }),
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as { listId: string }
    expect(body).toEqual({
      listId: expect.any(String),
      vault: 'API-V1',
      asOf: '2026-01-01T06:00:00.000Z',
      added: 2,
      unchanged: 0,
      withdrawn: 0,
      missing: [],
      conflicts: [],
    })
    const audit = await t.db.execute<{ action: string; actor_email: string }>(
      sql`select action, actor_email from audit_log where target_id = ${body.listId}`,
    )
    expect(audit).toEqual([{ action: 'vault.bar_list_import', actor_email: u.admin.email }])
  })

  it('201 for a CSV list with ?vault=&asOf=; the same list again answers the same', async () => {
    const csv =
      'serial,refiner,year,grossOz,fineness\r\nC1,PAMP SA,2024,400.000,999.9\r\nC2,"Argor-Heraeus SA",2023,395.5,995.0\r\n'
    const query = '?vault=API-V2&asOf=2026-01-01T06:00:00Z'
    const first = await importList(csv, { type: 'text/csv; charset=utf-8', query })
    expect(first.status).toBe(201)
    const a = await first.json()
    expect(a).toMatchObject({ vault: 'API-V2', added: 2 })
    const again = await importList(csv, { type: 'text/csv', query })
    expect(await again.json()).toEqual(a)
  })

  it('409 stale_bar_list for a list older than the latest', async () => {
    expect(
      (await importList(JSON.stringify({ vault: 'API-V3', asOf: '2026-01-02T00:00:00Z', bars: [bar('S1')] }))).status,
    ).toBe(201)
    expect(
      await errorOf(
        await importList(JSON.stringify({ vault: 'API-V3', asOf: '2026-01-01T00:00:00Z', bars: [bar('S1')] })),
      ),
    ).toMatchObject({
      status: 409,
      code: 'stale_bar_list',
    })
  })

  it('409 stale_bar_list for a list in the same whole second as the latest (as GoldMinter orders them); nothing written', async () => {
    const vault = 'API-SEC'
    const first = JSON.stringify({ vault, asOf: '2026-01-01T06:00:00.200Z', bars: [bar('SEC1')] })
    const created = await importList(first)
    expect(created.status).toBe(201)
    const answer = await created.json()
    const state = async () => {
      const [row] = await t.db.execute<{ lists: number; bars: string; audits: number }>(sql`
        select (select count(*)::int from bar_lists where vault = ${vault}) as lists,
               (select string_agg(serial || ':' || status::text, ',' order by serial) from vault_bars
                where vault = ${vault}) as bars,
               (select count(*)::int from audit_log where action = 'vault.bar_list_import') as audits`)
      return row
    }
    const before = await state()
    expect(before).toMatchObject({ lists: 1, bars: 'SEC1:available' })

    // later in the same second, and a list of other bars: refused, though its milliseconds are later
    const sameSecond = JSON.stringify({ vault, asOf: '2026-01-01T06:00:00.700Z', bars: [bar('SEC2')] })
    const refused = await errorOf(await importList(sameSecond))
    expect(refused).toMatchObject({ status: 409, code: 'stale_bar_list' })
    expect(refused.message).toContain('2026-01-01T06:00:00.200Z')
    expect(await state()).toEqual(before)
    // the same bars in the same second, at another millisecond: not the replay either
    const sameBars = JSON.stringify({ vault, asOf: '2026-01-01T06:00:00.999Z', bars: [bar('SEC1')] })
    expect(await errorOf(await importList(sameBars))).toMatchObject({ status: 409, code: 'stale_bar_list' })
    expect(await state()).toEqual(before)

    // the exact replay still answers the list it imported (its audit row says replay), and the next second is newer
    const replay = await importList(first)
    expect(replay.status).toBe(201)
    expect(await replay.json()).toEqual(answer)
    const nextSecond = await importList(
      JSON.stringify({ vault, asOf: '2026-01-01T06:00:01.000Z', bars: [bar('SEC1'), bar('SEC2')] }),
    )
    expect(nextSecond.status).toBe(201)
    expect(await state()).toMatchObject({ lists: 2, bars: 'SEC1:available,SEC2:available' })
  })

  it('422 with each issue at its line; 400 for broken JSON; 415 for another type', async () => {
    const csv =
      'serial,refiner,year,grossOz,fineness\nA1,Valcambi SA,2025,401.125,999.9\nA1,Valcambi SA,2025,401.125,999.9\nA2,Valcambi SA,2025,-4,999.9\n'
    const error = await errorOf(await importList(csv, { type: 'text/csv', query: '?vault=API-V4&asOf=2026-01-01' }))
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' })
    expect(error.issues?.map((i) => i.path)).toEqual(['line.3.serial', 'line.4.grossOz'])
    expect(await errorOf(await importList('{"vault":'))).toMatchObject({ status: 400, code: 'malformed_json' })
    expect(await errorOf(await importList('x', { type: 'text/plain' }))).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
    })
  })

  // 100,000 bars in one list: lib/web/vault/importBarList.int.test.ts; 20 MiB in the web's small heap: tests/release
  it('takes a 10,000-bar CSV (over 64 KiB), and 413 payload_too_large above 20 MiB', async () => {
    const lines = ['serial,refiner,year,grossOz,fineness']
    for (let i = 0; i < 10_000; i++) lines.push(`BIG${i},Valcambi SA,2025,401.125,999.9`)
    const csv = lines.join('\n')
    const res = await importList(csv, { type: 'text/csv', query: '?vault=API-BIG&asOf=2026-01-01T00:00:00Z' })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ added: 10_000 })
    const huge = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x20)
    expect(
      await errorOf(await importList(huge, { type: 'text/csv', query: '?vault=API-BIG&asOf=2026-01-02' })),
    ).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: 'The request body is larger than 20 MiB.',
    })
  }, 600_000)

  it('403 for staff; 401 without a session', async () => {
    signInAs(u.staff)
    expect(
      await errorOf(await importList(JSON.stringify({ vault: 'X', asOf: '2026-01-01', bars: [bar('F')] }))),
    ).toMatchObject({ status: 403 })
    signInAs(null)
    expect(await errorOf(await getLists())).toMatchObject({ status: 401 })
  })
})

describe('GET /api/admin/vault/bar-lists', () => {
  it('newest import first, with counts and who imported it, a page at a time', async () => {
    const page1 = (await (await getLists('?limit=2')).json()) as {
      items: { vault: string; importedBy: string; barCount: number }[]
      nextCursor: string | null
    }
    expect(page1.items).toHaveLength(2)
    expect(page1.items[0]).toMatchObject({ importedBy: u.admin.email, missingCount: 0, conflictCount: 0 })
    expect(page1.nextCursor).toEqual(expect.any(String))
    const page2 = (await (await getLists(`?limit=2&cursor=${page1.nextCursor}`)).json()) as {
      items: { listId: string }[]
    }
    expect(page2.items.length).toBeGreaterThan(0)
    const v2 = (await (await getLists('?vault=API-V2')).json()) as { items: { vault: string; barCount: number }[] }
    expect(v2.items).toEqual([expect.objectContaining({ vault: 'API-V2', barCount: 2 })])
    expect(await errorOf(await getLists('?cursor=nope'))).toMatchObject({ status: 422, code: 'validation_failed' })
  })
})

describe('GET /api/vault/bars', () => {
  it('filters by vault, status and q (serial or refiner, without case, spaces or dashes), a page at a time', async () => {
    signInAs(u.staff)
    const all = (await (await getBars('?vault=API-V2')).json()) as {
      items: { serial: string; fineness: string; fineOz: string; status: string }[]
    }
    expect(all.items.map((b) => [b.serial, b.fineness, b.fineOz, b.status])).toEqual([
      ['C1', '999.9', '399.960', 'available'],
      ['C2', '995.0', '393.522', 'available'],
    ])
    const q = (await (await getBars('?q=argor-heraeus')).json()) as { items: { serial: string }[] }
    expect(q.items.map((b) => b.serial)).toEqual(['C2'])
    const page = (await (await getBars('?vault=API-BIG&limit=500')).json()) as { items: unknown[]; nextCursor: string }
    expect(page.items).toHaveLength(500)
    const next = (await (await getBars(`?vault=API-BIG&limit=500&cursor=${page.nextCursor}`)).json()) as {
      items: { serial: string }[]
    }
    expect(next.items[0]?.serial).not.toBe((page.items[0] as { serial: string }).serial)
    expect(await errorOf(await getBars('?status=lost'))).toMatchObject({ status: 422, issues: [{ path: 'status' }] })
  })

  it('shows the order holding a bar to admins, and to staff only for their own orders', async () => {
    signInAs(u.otherStaff)
    const request = buildMintRequest({ vault: 'API-V1', bars: [{ serial: 'J1' }] })
    const res = await r.mint.POST(routeRequest('/api/gold/mint', { method: 'POST', body: request }))
    expect(res.status).toBe(202)
    const { orderId } = (await res.json()) as { orderId: string }
    const reserved = async () =>
      (
        (await (await getBars('?vault=API-V1&status=reserved')).json()) as {
          items: { serial: string; orderId: string | null }[]
        }
      ).items
    expect(await reserved()).toEqual([expect.objectContaining({ serial: 'J1', orderId })])
    signInAs(u.staff)
    expect(await reserved()).toEqual([expect.objectContaining({ serial: 'J1', orderId: null })])
    signInAs(u.admin)
    expect(await reserved()).toEqual([expect.objectContaining({ serial: 'J1', orderId })])
  })
})
