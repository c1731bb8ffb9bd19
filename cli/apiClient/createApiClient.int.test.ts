import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { signInAs } from '@/tests/helpers/fakeSession'
import { allowRecipients } from '@/tests/helpers/recipients'
import { ROUTE_ORIGIN, type RouteTest, startRouteTest } from '@/tests/helpers/routeTest'
import { type ApiClient, createApiClient } from './createApiClient'

// The typed client against the real route handlers, the real wrapper and a real database as the web's role: the
// client's fetch hands each request to the route the document names for its path. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type RouteModule = Record<string, unknown>
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

let route: RouteTest
let api: ApiClient
/** what each request reached: method, path and its Origin header */
const seen: { method: string; path: string; origin: string | null }[] = []

/** The routes served, by the document's path: `{orderId}` matches one segment. */
async function serveRoutes(): Promise<(req: Request) => Promise<Response>> {
  const table: [string, RouteModule][] = [
    ['/api/health', await import('@/app/api/health/route')],
    ['/api/gold/mint', await import('@/app/api/gold/mint/route')],
    ['/api/gold/mint/{orderId}', await import('@/app/api/gold/mint/[orderId]/route')],
  ]
  const routes = table.map(([pattern, module]) => {
    const names: string[] = []
    const re = new RegExp(
      `^${pattern.replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name)
        return '([^/]+)'
      })}$`,
    )
    return { re, names, module }
  })
  return async (req) => {
    const url = new URL(req.url)
    seen.push({ method: req.method, path: url.pathname + url.search, origin: req.headers.get('origin') })
    for (const r of routes) {
      const m = r.re.exec(url.pathname)
      const handler = r.module[req.method] as Handler | undefined
      if (!m || !handler) continue
      const params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]))
      return handler(req, { params: Promise.resolve(params) })
    }
    return new Response('no such route in this test', { status: 599 })
  }
}

beforeAll(async () => {
  route = await startRouteTest()
  await allowRecipients(route.t.db, [TEST_RECIPIENT])
  api = createApiClient({ baseUrl: ROUTE_ORIGIN, cookie: 'authjs.session-token=test', fetch: await serveRoutes() })
})

afterAll(async () => {
  await route?.close()
})

describe('createApiClient', () => {
  it('GET /api/health: the data as the document types it', async () => {
    const { data, error, response } = await api.GET('/api/health')
    expect(response.status).toBe(200)
    expect(error).toBeUndefined()
    expectTypeOf(data).toEqualTypeOf<{ status: 'ok' } | undefined>()
    expect(data).toEqual({ status: 'ok' })
  })

  it('POST /api/gold/mint: a write carries the Origin of the base URL, the 202 reads back through GET /api/gold/mint/{orderId}', async () => {
    signInAs(route.u.staff)
    const request = buildMintRequest({ bars: [{ serial: 'CLIENT-1' }, { serial: 'CLIENT-2' }] })
    await stockBarsOf(route.t.db, request)

    const accepted = await api.POST('/api/gold/mint', { body: request })
    expect(accepted.response.status).toBe(202)
    expectTypeOf(accepted.data?.orderId).toEqualTypeOf<string | undefined>()
    const orderId = accepted.data!.orderId
    expect(accepted.data).toEqual({ orderId, status: 'awaiting_approval', statusUrl: `/api/gold/mint/${orderId}` })
    expect(seen.at(-1)).toEqual({ method: 'POST', path: '/api/gold/mint', origin: ROUTE_ORIGIN })

    const one = await api.GET('/api/gold/mint/{orderId}', { params: { path: { orderId } } })
    expect(one.response.status).toBe(200)
    expect(seen.at(-1)).toEqual({ method: 'GET', path: `/api/gold/mint/${orderId}`, origin: null })
    expectTypeOf(one.data!.status).toEqualTypeOf<
      'awaiting_approval' | 'pending' | 'submitted' | 'confirmed' | 'failed' | 'rejected' | 'cancelled'
    >()
    expect(one.data).toMatchObject({ orderId, status: 'awaiting_approval', to: TEST_RECIPIENT, amount: request.amount })
  })

  it("a refusal is the error, in the API's one shape", async () => {
    signInAs(route.u.staff)
    const request = buildMintRequest({ bars: [{ serial: 'CLIENT-3' }] })
    // a body the contract does not allow, sent past the types to see the route refuse it
    const { data, error, response } = await api.POST('/api/gold/mint', {
      body: { ...request, to: 'not an address' } as typeof request,
    })
    expect(response.status).toBe(422)
    expect(data).toBeUndefined()
    expect(error?.error.code).toBe('validation_failed')
    expect(error?.error.issues?.map((i) => i.path)).toContain('to')
  })

  it('a write from another origin is refused: the Origin told wins over the base URL', async () => {
    signInAs(route.u.staff)
    const elsewhere = createApiClient({
      baseUrl: ROUTE_ORIGIN,
      origin: 'https://evil.example',
      fetch: await serveRoutes(),
    })
    const { error, response } = await elsewhere.POST('/api/gold/mint', {
      body: buildMintRequest({ bars: [{ serial: 'CLIENT-4' }] }),
    })
    expect(response.status).toBe(403)
    expect(error?.error.code).toBe('forbidden')
  })
})
