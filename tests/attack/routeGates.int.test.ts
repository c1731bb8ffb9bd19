import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { reserveChecks } from '@/db/schema/reserves'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { errorShapeProblems } from '@/tests/chaos/badInputs'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { type ApiRoute, isPublicApi, listApiRoutes, PUBLIC_API_ROUTES, samplePath } from './appRoutes'
import { sessionStore } from './fakeSession'

// The gates of every API route, in process (fast, before the browser tests): each
// app/api/**/route.ts found on disk is imported and every exported method is called
// without a session (401), as staff on an admin route (403) and cross-origin with an
// admin session (403), through the real route wrapper. The same is proven over real HTTP
// by tests/e2e/security.spec.ts; next-auth's own route is left to that one (it is public
// and needs Next's module resolution).
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)

const root = path.resolve(import.meta.dirname, '..', '..')
const ORIGIN = 'http://localhost:3000'
const routes = listApiRoutes(root).filter((r) => !r.pattern.startsWith('/api/auth/'))
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

let t: TestDatabase
let u: TestUsers
let closeDb: () => Promise<void> = async () => {}
const handlers = new Map<string, Record<string, Handler>>()

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  // the worker's reconciliation ran once: with no chain in this test, GET /api/reserves answers from it
  await insertReserveCheck()
  process.env.DATABASE_URL = t.roleUrl('web') // the web's own role: the route runs on its grants
  const { getWebDb } = await import('@/lib/web/webProcess')
  closeDb = () => getWebDb().close()
  for (const r of routes) handlers.set(r.pattern, (await import(path.join(root, r.file))) as Record<string, Handler>)
})

afterAll(async () => {
  await closeDb()
  await t?.drop()
})

async function insertReserveCheck() {
  await t.db.insert(reserveChecks).values({
    blockNumber: 7n,
    totalSupplyWei: '0',
    backingMilliOz: 0n,
    inFlightMilliOz: 0n,
    availableMilliOz: 0n,
    missingMilliOz: 0n,
    shortfallWei: '0',
    status: 'covered',
  })
}

async function call(r: ApiRoute, method: string, user: SessionUser | null, headers: Record<string, string> = {}) {
  const url = samplePath(r.pattern)
  const params = Object.fromEntries(
    [...r.pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], decodeURIComponent(samplePath(`[${m[1]}]`))]),
  )
  const mutating = method !== 'GET' && method !== 'HEAD'
  const req = new Request(`${ORIGIN}${url}`, {
    method,
    headers: mutating ? { 'content-type': 'application/json', origin: ORIGIN, ...headers } : headers,
    body: mutating ? '{}' : undefined,
  })
  const handler = handlers.get(r.pattern)?.[method]
  if (!handler) throw new Error(`${r.file} exports no ${method}`)
  const res = await sessionStore.run(user, () => handler(req, { params: Promise.resolve(params) }))
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() }
}

describe('every API route found in app/api', () => {
  it('was found, with its methods', () => {
    expect(routes.length).toBeGreaterThanOrEqual(10)
    expect(routes.every((r) => r.methods.length > 0 && handlers.get(r.pattern))).toBe(true)
  })

  it('without a session: 401 unauthenticated in the error shape (health, ready and the bearer-token metrics are public)', async () => {
    for (const r of routes) {
      for (const method of r.methods) {
        const res = await call(r, method, null)
        if (isPublicApi(r.pattern)) {
          expect(res.status, `${method} ${r.pattern}`).toBeLessThan(500)
          continue
        }
        expect(res.status, `${method} ${r.pattern}: ${res.text}`).toBe(401)
        expect(errorShapeProblems(res.status, res.contentType, res.text)).toEqual([])
      }
    }
  })

  it('public: exactly the operations routes and the proof of reserve, nothing else', () => {
    expect(routes.filter((r) => isPublicApi(r.pattern)).map((r) => r.pattern)).toEqual([...PUBLIC_API_ROUTES])
  })

  it('the reserves routes answer anyone in the API shape: the figures (from the latest check without a chain), the lookup, 422 for a bad query', async () => {
    const route = (pattern: string) => routes.find((r) => r.pattern === pattern) as ApiRoute
    const get = async (path: string) => {
      const handler = handlers.get(path.split('?')[0] ?? '')?.GET
      if (!handler) throw new Error(`no GET ${path}`)
      const res = await sessionStore.run(null, () =>
        handler(new Request(`${ORIGIN}${path}`), { params: Promise.resolve({}) }),
      )
      return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() }
    }
    expect(route('/api/reserves').methods).toEqual(['GET'])
    expect(route('/api/reserves/lookup').methods).toEqual(['GET'])

    const reserves = await get('/api/reserves')
    expect(reserves.status, reserves.text).toBe(200)
    expect(JSON.parse(reserves.text)).toMatchObject({
      source: 'check',
      status: 'covered',
      totalSupply: '0.000',
      shortfallOz: '0.000',
      blockNumber: '7',
    })

    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const found = await get(`/api/reserves/lookup?address=${address}`)
    expect(found.status, found.text).toBe(200)
    expect(JSON.parse(found.text)).toEqual({ query: { address }, mints: [], truncated: false })
    for (const bad of [
      '',
      '?address=0x12',
      `?tx=0x${'g'.repeat(64)}`,
      `?address=${address}&tx=0x${'a'.repeat(64)}`,
      `?address=${address}&address=${address}`,
    ]) {
      const res = await get(`/api/reserves/lookup${bad}`)
      expect(res.status, `lookup${bad}: ${res.text}`).toBe(422)
      expect(JSON.parse(res.text).error.code).toBe('validation_failed')
      expect(errorShapeProblems(res.status, res.contentType, res.text)).toEqual([])
    }

    // no chain and no check yet: 503 not_ready, never made-up figures (the cached answer forgotten first:
    // the reserves answers are kept a few seconds per process, lib/web/reserves/createReservesReader.ts)
    await t.db.delete(reserveChecks)
    ;(await import('@/lib/web/webProcess')).getReservesReader().clear()
    const none = await get('/api/reserves')
    expect(none.status, none.text).toBe(503)
    expect(JSON.parse(none.text).error.code).toBe('not_ready')
    expect(errorShapeProblems(none.status, none.contentType, none.text)).toEqual([])
    await insertReserveCheck()
  })

  it('staff on an admin route: 403 forbidden', async () => {
    const admin = routes.filter((r) => r.pattern.startsWith('/api/admin'))
    expect(admin.length).toBeGreaterThanOrEqual(5)
    for (const r of admin)
      for (const method of r.methods)
        expect((await call(r, method, u.staff)).status, `${method} ${r.pattern}`).toBe(403)
  })

  it('a cross-origin mutation with an admin session: 403 forbidden', async () => {
    for (const r of routes.filter((x) => !isPublicApi(x.pattern))) {
      for (const method of r.methods.filter((m) => m !== 'GET' && m !== 'HEAD')) {
        for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }]) {
          const res = await call(r, method, u.admin, headers)
          expect(res.status, `${method} ${r.pattern} with ${JSON.stringify(headers)}: ${res.text}`).toBe(403)
        }
      }
    }
  })
})
