import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser, type TestUsers } from '@/tests/helpers/users'

// GET /api/admin/reconciliation and POST /api/admin/reconciliation/{id}/resolve through the real routes, the real
// wrapper and a real database as the web's role (no RPC configured: the chain nonces are unknown). Only the session
// is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = { list: typeof import('./route'); resolve: typeof import('./[id]/resolve/route') }

let route: RouteTest
let t: TestDatabase
let u: TestUsers
let r: Routes
let auditor: SessionUser

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  u = route.u
  auditor = { ...(await insertUser(t.db, 'auditor')), role: 'auditor' }
  delete process.env.RPC_URL
  r = { list: await import('./route'), resolve: await import('./[id]/resolve/route') }
})
afterAll(async () => {
  await route?.close()
})
beforeEach(async () => {
  signInAs(u.admin)
  await t.db.execute(sql`delete from unreconciled_events`)
})

async function outsideMint(): Promise<string> {
  const [row] = await t.db.execute<{ id: string }>(sql`
    insert into unreconciled_events (tx_hash, log_index, block_number, contract_address, event, subject_id, amount_wei, reason)
    values (${`0x${'1'.repeat(64)}`}, 3, 42, ${`0x${'2'.repeat(40)}`}, 'Minted', ${`0x${'ab'.repeat(32)}`},
      7000000000000000001, 'no order of the desk has this id: minted outside mintdesk')
    returning id::text as id`)
  return row?.id ?? ''
}
const resolve = (id: string, body: unknown) =>
  r.resolve.POST(routeRequest(`/api/admin/reconciliation/${id}/resolve`, { method: 'POST', body }), routeParams({ id }))
const auditRows = () =>
  t.db.execute<{ actor_email: string; target_id: string; detail: { note: string } }>(
    sql`select actor_email, target_id, detail from audit_log where action = 'reconciliation.resolve' order by id`,
  )

describe('GET /api/admin/reconciliation', () => {
  it('lists the open events with the amount in ounces, every digit kept, for an auditor too', async () => {
    const id = await outsideMint()
    signInAs(auditor)
    const res = await r.list.GET(routeRequest('/api/admin/reconciliation'))
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.unreconciled).toEqual([
      expect.objectContaining({
        id,
        txHash: `0x${'1'.repeat(64)}`,
        logIndex: 3,
        event: 'Minted',
        amount: '7.000000000000000001',
        blockNumber: 42,
      }),
    ])
    expect(body.chain.available).toBe(false)
  })
})

describe('POST /api/admin/reconciliation/{id}/resolve', () => {
  it('marks the event resolved with the note, audited; it leaves the open list', async () => {
    const id = await outsideMint()
    const res = await resolve(id, { note: 'a test mint on the minter role; burned in tx 0x12' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id, resolvedBy: u.admin.email })
    const audit = await auditRows()
    expect(audit.slice(-1)).toEqual([
      expect.objectContaining({
        actor_email: u.admin.email,
        target_id: id,
        detail: expect.objectContaining({ note: 'a test mint on the minter role; burned in tx 0x12' }),
      }),
    ])
    const list = await (await r.list.GET(routeRequest('/api/admin/reconciliation'))).json()
    expect(list.unreconciled).toEqual([])
    expect(list.resolved).toEqual([
      expect.objectContaining({ id, note: 'a test mint on the minter role; burned in tx 0x12' }),
    ])
    // a second time: 409, nothing written
    const again = await resolve(id, { note: 'again' })
    expect(again.status).toBe(409)
    expect((await errorOf(again)).code).toBe('conflict')
    expect(await auditRows()).toHaveLength(audit.length)
  })

  it('refuses an unknown id (404), an empty note (422) and an auditor (403), writing nothing', async () => {
    const id = await outsideMint()
    const audited = (await auditRows()).length
    expect((await resolve('999999', { note: 'x' })).status).toBe(404)
    const empty = await resolve(id, { note: '  ' })
    expect(empty.status).toBe(422)
    expect((await errorOf(empty)).code).toBe('validation_failed')
    signInAs(auditor)
    expect((await resolve(id, { note: 'x' })).status).toBe(403)
    expect(await auditRows()).toHaveLength(audited)
    const [row] = await t.db.execute<{ resolved_at: string | null }>(
      sql`select resolved_at from unreconciled_events where id = ${id}::bigint`,
    )
    expect(row?.resolved_at).toBeNull()
  })
})
