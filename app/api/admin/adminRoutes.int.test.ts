import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, addPlainJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'

// The session is the one thing faked here (next-auth needs a browser sign-in); the
// route wrapper, the domain code and the database are the real ones.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }))
// getSessionClaims: no route here checks its row in its handler (only POST /api/gold/mint does), so no claims
vi.mock('@/lib/web/auth/getSessionUser', () => ({
  getSessionUser: async () => session.user,
  getSessionClaims: async () => null,
}))

const ORIGIN = 'http://mintdesk.test'
const METRICS_TOKEN = 'test-metrics-token'

type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('admin API routes', () => {
  let t: TestDatabase
  let admin: SessionUser
  let staff: SessionUser
  let deadJob: bigint
  let routes: {
    jobs: Handler
    job: Handler
    retry: Handler
    cancel: Handler
    bulk: Handler
    metrics: Handler
    system: Handler
    prometheus: Handler
  }

  beforeAll(async () => {
    t = await createTestDatabase()
    process.env.DATABASE_URL = t.roleUrl('web') // the web's own role: the route runs on its grants
    process.env.METRICS_TOKEN = METRICS_TOKEN
    process.env.APP_URL = ORIGIN
    delete process.env.RPC_URL
    const a = await insertUser(t.db, 'admin')
    const s = await insertUser(t.db, 'staff')
    admin = { id: a.id, email: a.email, role: 'admin' }
    staff = { id: s.id, email: s.email, role: 'staff' }
    const order = await insertOrder(t.db, { requestedBy: s.id, status: 'failed' })
    deadJob = await addMintJob(t.db, { orderId: order.id })
    await setJobState(t.db, deadJob, 'dead', { error: 'ContractFunctionRevertedError: AccountFrozen' })
    routes = {
      jobs: (await import('./jobs/route')).GET,
      job: (await import('./jobs/[jobId]/route')).GET,
      retry: (await import('./jobs/[jobId]/retry/route')).POST,
      cancel: (await import('./jobs/[jobId]/cancel/route')).POST,
      bulk: (await import('./jobs/retry/route')).POST,
      metrics: (await import('./metrics/route')).GET,
      system: (await import('./system/route')).GET,
      prometheus: (await import('../metrics/route')).GET,
    }
  })
  afterAll(async () => {
    const { getWebDb } = await import('@/lib/web/webProcess')
    await getWebDb().close()
    await t.drop()
  })

  const get = (path: string) => new Request(`${ORIGIN}${path}`)
  const post = (path: string, body?: unknown, origin = ORIGIN) =>
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ctx = (jobId: string) => ({ params: Promise.resolve({ jobId }) })

  function calls(): [string, () => Promise<Response>][] {
    const id = deadJob.toString()
    return [
      ['GET /api/admin/jobs', () => routes.jobs(get('/api/admin/jobs'))],
      ['GET /api/admin/jobs/{id}', () => routes.job(get(`/api/admin/jobs/${id}`), ctx(id))],
      ['POST /api/admin/jobs/{id}/retry', () => routes.retry(post(`/api/admin/jobs/${id}/retry`), ctx(id))],
      ['POST /api/admin/jobs/{id}/cancel', () => routes.cancel(post(`/api/admin/jobs/${id}/cancel`), ctx(id))],
      ['POST /api/admin/jobs/retry', () => routes.bulk(post('/api/admin/jobs/retry', { state: 'dead' }))],
      ['GET /api/admin/metrics', () => routes.metrics(get('/api/admin/metrics'))],
      ['GET /api/admin/system', () => routes.system(get('/api/admin/system'))],
    ]
  }

  it('answers 401 without a session and 403 to staff on every admin route, changing nothing', async () => {
    for (const [name, call] of calls()) {
      session.user = null
      const anon = await call()
      expect(anon.status, name).toBe(401)
      session.user = staff
      const res = await call()
      expect(res.status, name).toBe(403)
      expect(await res.json(), name).toMatchObject({ error: { code: 'forbidden' } })
    }
    const [live] = await t.db.execute<{ attempts: number }>(
      sql`select attempts::int as attempts from graphile_worker._private_jobs where id = ${deadJob.toString()}::bigint`,
    )
    expect(live?.attempts).toBe(5)
  })

  it('lists, shows and validates for an admin', async () => {
    session.user = admin
    const list = await routes.jobs(get('/api/admin/jobs?state=dead&task=&q='))
    expect(list.status).toBe(200)
    const body = (await list.json()) as { items: { id: string; state: string }[]; nextCursor: string | null }
    expect(body.items.map((j) => [j.id, j.state])).toEqual([[deadJob.toString(), 'dead']])
    expect(body.nextCursor).toBeNull()

    const bad = await routes.jobs(get('/api/admin/jobs?state=zombie&limit=0'))
    expect(bad.status).toBe(422)
    const issues = ((await bad.json()) as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)
    expect(issues).toEqual(expect.arrayContaining(['state', 'limit']))

    const detail = await routes.job(get(`/api/admin/jobs/${deadJob}`), ctx(deadJob.toString()))
    expect(detail.status).toBe(200)
    expect(await detail.json()).toMatchObject({
      job: { id: deadJob.toString(), state: 'dead' },
      order: { status: 'failed' },
    })
    expect((await routes.job(get('/api/admin/jobs/abc'), ctx('abc'))).status).toBe(404)
    expect((await routes.job(get('/api/admin/jobs/424242'), ctx('424242'))).status).toBe(404)
  })

  it("hides the housekeeping tasks' routine jobs unless housekeeping=show", async () => {
    session.user = admin
    const health = await addPlainJob(t.db, { task: 'nonce_health' })
    const ids = async (query: string) => {
      const res = await routes.jobs(get(`/api/admin/jobs${query}`))
      expect(res.status).toBe(200)
      return ((await res.json()) as { items: { id: string }[] }).items.map((j) => j.id)
    }
    expect(await ids('')).toEqual([deadJob.toString()])
    expect(await ids('?housekeeping=')).toEqual([deadJob.toString()])
    expect(await ids('?housekeeping=hide')).toEqual([deadJob.toString()])
    expect(await ids('?housekeeping=show')).toEqual([health.toString(), deadJob.toString()])
    expect(await ids('?task=nonce_health')).toEqual([health.toString()])
    expect((await routes.jobs(get('/api/admin/jobs?housekeeping=all'))).status).toBe(422)
  })

  it('ids and cursors past the bigint range answer 404 / 422, never 500 (issue 13)', async () => {
    session.user = admin
    const huge = '99999999999999999999'
    for (const [name, call] of [
      ['GET', () => routes.job(get(`/api/admin/jobs/${huge}`), ctx(huge))],
      ['retry', () => routes.retry(post(`/api/admin/jobs/${huge}/retry`), ctx(huge))],
      ['cancel', () => routes.cancel(post(`/api/admin/jobs/${huge}/cancel`), ctx(huge))],
    ] as const) {
      expect((await call()).status, name).toBe(404)
    }
    const cursor = (id: string) => Buffer.from(`j:${id}`, 'utf8').toString('base64url')
    for (const id of ['9223372036854775808', '9999999999999999999']) {
      const res = await routes.jobs(get(`/api/admin/jobs?cursor=${cursor(id)}`))
      expect(res.status, id).toBe(422)
      expect(await res.json()).toMatchObject({ error: { code: 'validation_failed', issues: [{ path: 'cursor' }] } })
    }
    expect((await routes.jobs(get(`/api/admin/jobs?cursor=${cursor('9223372036854775807')}`))).status).toBe(200)
    const bulk = await routes.bulk(post('/api/admin/jobs/retry', { jobIds: [huge] }))
    expect(bulk.status).toBe(422)
  })

  it('refuses a cross-origin retry (403) and a malformed bulk body (422)', async () => {
    session.user = admin
    const id = deadJob.toString()
    expect(
      (await routes.retry(post(`/api/admin/jobs/${id}/retry`, undefined, 'https://evil.example'), ctx(id))).status,
    ).toBe(403)
    const bad = await routes.bulk(post('/api/admin/jobs/retry', { state: 'done' }))
    expect(bad.status).toBe(422)
    expect((await routes.bulk(post('/api/admin/jobs/retry', { jobIds: [] }))).status).toBe(422)
  })

  it('retries for an admin, then answers 409 to a second retry', async () => {
    session.user = admin
    const id = deadJob.toString()
    const res = await routes.retry(post(`/api/admin/jobs/${id}/retry`), ctx(id))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ jobId: id, state: 'queued', orderStatus: 'pending' })
    const again = await routes.retry(post(`/api/admin/jobs/${id}/retry`), ctx(id))
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(
      /only a dead or retrying job/,
    )
  })

  it('cancels for an admin; 409 while running', async () => {
    session.user = admin
    const id = deadJob.toString()
    await setJobState(t.db, deadJob, 'running')
    const running = await routes.cancel(post(`/api/admin/jobs/${id}/cancel`), ctx(id))
    expect(running.status).toBe(409)
    expect(((await running.json()) as { error: { message: string } }).error.message).toMatch(/running/)
    await setJobState(t.db, deadJob, 'dead')
    const res = await routes.cancel(post(`/api/admin/jobs/${id}/cancel`), ctx(id))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ jobId: id, state: 'cancelled', orderStatus: 'cancelled' })
  })

  it('serves the metrics and the system status to an admin (no RPC configured: chain unavailable)', async () => {
    session.user = admin
    const metrics = await routes.metrics(get('/api/admin/metrics'))
    expect(metrics.status).toBe(200)
    expect(await metrics.json()).toMatchObject({ windowSeconds: 3600, deadLetters: { count: 0 } })
    const system = await routes.system(get('/api/admin/system'))
    expect(system.status).toBe(200)
    expect(await system.json()).toMatchObject({ signers: [], workers: [], chain: { available: false } })
  })

  it('GET /api/metrics wants the bearer token, then speaks Prometheus text', async () => {
    session.user = admin // a session is not enough
    expect((await routes.prometheus(get('/api/metrics'))).status).toBe(401)
    const wrong = new Request(`${ORIGIN}/api/metrics`, { headers: { authorization: 'Bearer nope' } })
    expect((await routes.prometheus(wrong)).status).toBe(401)
    const ok = await routes.prometheus(
      new Request(`${ORIGIN}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    )
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/)
    const text = await ok.text()
    expect(text).toContain('# TYPE mintdesk_dead_letters gauge')
    expect(text).toContain('mintdesk_jobs{task="mint_send",state="dead"} 0')
    expect(text).toContain('mintdesk_chain_up 0')
  })
})
