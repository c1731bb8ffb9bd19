import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'

/** The origin the route tests' requests come from (the same-origin check lets it through). */
export const ROUTE_ORIGIN = 'http://localhost:3000'

export type RouteTest = {
  t: TestDatabase
  u: TestUsers
  /** closes the web's pool, then drops the database */
  close: () => Promise<void>
}

/**
 * A database of its own with the test users, and the web pointed at it as the web's own
 * role (the routes run on its grants). Import the routes after this: they read the env.
 */
export async function startRouteTest(): Promise<RouteTest> {
  const t = await createTestDatabase()
  const u = await insertTestUsers(t.db)
  process.env.DATABASE_URL = t.roleUrl('web')
  const { getWebDb } = await import('@/lib/web/webProcess')
  return {
    t,
    u,
    close: async () => {
      await getWebDb().close()
      await t.drop()
    },
  }
}

export type RouteRequestParameters = {
  method?: string
  /** sent as JSON unless a string (sent as is) */
  body?: unknown
  /** the content type of a body (JSON unless told) */
  type?: string
  /** the Origin header of a write (ROUTE_ORIGIN unless told) */
  origin?: string
  headers?: Record<string, string>
}

/**
 * A request to a route as the browser sends it: a GET bare; a write with its Origin and,
 * when it has a body, its content type.
 */
export function routeRequest(
  path: string,
  { method = 'GET', body, type = 'application/json', origin = ROUTE_ORIGIN, headers }: RouteRequestParameters = {},
): Request {
  const write = method !== 'GET'
  return new Request(`${ROUTE_ORIGIN}${path}`, {
    method,
    headers: write ? { origin, ...(body === undefined ? {} : { 'content-type': type }), ...headers } : headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** A dynamic route's second argument: `{ params }` as Next passes it. */
export function routeParams<P extends Record<string, string>>(params: P): { params: Promise<P> } {
  return { params: Promise.resolve(params) }
}

/** The error a route answered: its status and the body's error (code, message, issues). */
export async function errorOf(res: Response) {
  const body = (await res.json()) as {
    error: { code: string; message: string; issues?: { path: string; message: string }[] }
  }
  return { status: res.status, ...body.error }
}
