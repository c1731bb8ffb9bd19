/**
 * How the chaos scenarios talk to the web: one function, `Api`, with two bindings.
 * - `createHttpApi`: the real HTTP server (the long form), signed in as the browser does
 *   (GET /api/auth/csrf, POST /api/auth/callback/credentials, both with `Origin`), one
 *   cookie jar per role, `Origin` on every POST.
 * - `createHandlerApi`: the real route handlers called in this process (the short form in
 *   vitest, where no Next server runs); the caller supplies the session.
 */

export type ApiRole = 'staff' | 'admin' | 'approver'

export type ApiRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** path and query, e.g. /api/gold/mint */
  path: string
  /** signed in as; none = no session */
  as?: ApiRole
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** abort after this long (a hang is a failure, never a wait); 15 s by default */
  timeoutMs?: number
}

export type Api = (req: ApiRequest) => Promise<Response>

/** A request body as fetch takes it. */
function bodyInit(body: string | Uint8Array | undefined): BodyInit | undefined {
  // TypeScript's DOM types want an ArrayBuffer-backed view; every Uint8Array we make is one
  return body as BodyInit | undefined
}

/** the approver's only where a test approves orders through the API (tests/chaos/orders.ts) */
export type Credentials = Record<'staff' | 'admin', { email: string; password: string }> &
  Partial<Record<'approver', { email: string; password: string }>>

export class ApiTimeoutError extends Error {
  override name = 'ApiTimeoutError'
}

/** A minimal cookie jar: name -> value from Set-Cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>()
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header(): string {
    return [...this.cookies.entries()].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  has(prefix: string): boolean {
    return [...this.cookies.keys()].some((k) => k.includes(prefix))
  }
}

export type SignInParameters = { baseUrl: string; email: string; password: string; headers?: Record<string, string> }
export type SignInReturnType = {
  ok: boolean
  cookie: string
  status: number
  location: string | null
  setCookies: string[]
}

/**
 * Signs in through next-auth's credentials endpoint; ok when a session cookie was set and the session names the user.
 */
export async function signIn({ baseUrl, email, password, headers = {} }: SignInParameters): Promise<SignInReturnType> {
  const jar = new CookieJar()
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`, { headers, signal: AbortSignal.timeout(15_000) })
  jar.take(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, origin: baseUrl, cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: baseUrl }).toString(),
    signal: AbortSignal.timeout(15_000),
  })
  jar.take(res)
  await res.arrayBuffer()
  let ok = false
  if (jar.has('session-token')) {
    const session = await fetch(`${baseUrl}/api/auth/session`, {
      headers: { cookie: jar.header() },
      signal: AbortSignal.timeout(15_000),
    })
    const body = (await session.json()) as { user?: { email?: string } } | null
    ok = body?.user?.email === email
  }
  return {
    ok,
    cookie: jar.header(),
    status: res.status,
    location: res.headers.get('location'),
    setCookies: res.headers.getSetCookie(),
  }
}

export type CreateHttpApiParameters = { baseUrl: string; credentials: Credentials }

export function createHttpApi({
  baseUrl,
  credentials,
}: CreateHttpApiParameters): Api & { cookieOf: (role: ApiRole) => Promise<string> } {
  const sessions = new Map<ApiRole, Promise<string>>()
  const cookieOf = (role: ApiRole): Promise<string> => {
    let s = sessions.get(role)
    if (!s) {
      const given = credentials[role]
      if (!given) return Promise.reject(new Error(`no credentials for ${role}`))
      s = signIn({ baseUrl, ...given }).then((r) => {
        if (!r.ok) throw new Error(`sign-in as ${role} failed (status ${r.status}, location ${r.location})`)
        return r.cookie
      })
      s.catch(() => sessions.delete(role))
      sessions.set(role, s)
    }
    return s
  }
  const api = async (req: ApiRequest): Promise<Response> => {
    const headers: Record<string, string> = { ...(req.headers ?? {}) }
    if (req.as) headers.cookie = await cookieOf(req.as)
    if (req.method !== 'GET' && !Object.keys(headers).some((h) => h.toLowerCase() === 'origin'))
      headers.origin = baseUrl
    try {
      return await fetch(`${baseUrl}${req.path}`, {
        method: req.method,
        headers,
        body: bodyInit(req.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(req.timeoutMs ?? 15_000),
      })
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ApiTimeoutError(`${req.method} ${req.path} did not answer within ${req.timeoutMs ?? 15_000} ms`)
      }
      throw error
    }
  }
  return Object.assign(api, { cookieOf })
}

/** A route handler as Next.js calls it. */
export type RouteHandler = (
  req: Request,
  ctx?: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>

export type CreateHandlerApiParameters = {
  origin: string
  /** 'POST /api/gold/mint' or 'GET /api/gold/mint/[orderId]' -> the exported handler */
  routes: Record<string, RouteHandler>
  /** runs the handler as this role (or without a session) */
  runAs: (role: ApiRole | undefined, fn: () => Promise<Response>) => Promise<Response>
}

export function createHandlerApi({ origin, routes, runAs }: CreateHandlerApiParameters): Api {
  const table = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ')
    const names: string[] = []
    const re = new RegExp(
      `^${pattern.replace(/\[([^\]]+)\]/g, (_, name: string) => {
        names.push(name)
        return '([^/]+)'
      })}$`,
    )
    return { method, re, names, handler }
  })
  return async (req) => {
    const url = new URL(req.path, origin)
    const route = table.find((r) => r.method === req.method && r.re.test(url.pathname))
    if (!route) throw new Error(`no handler for ${req.method} ${url.pathname}`)
    const m = route.re.exec(url.pathname)
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m?.[i + 1] ?? '')]))
    const headers: Record<string, string> = { ...(req.headers ?? {}) }
    if (req.method !== 'GET' && !Object.keys(headers).some((h) => h.toLowerCase() === 'origin')) headers.origin = origin
    const request = new Request(url, { method: req.method, headers, body: bodyInit(req.body) })
    const timeoutMs = req.timeoutMs ?? 15_000
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        runAs(req.as, () => route.handler(request, { params: Promise.resolve(params) })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ApiTimeoutError(`${req.method} ${req.path} did not answer within ${timeoutMs} ms`)),
            timeoutMs,
          )
        }),
      ])
    } finally {
      clearTimeout(timer)
    }
  }
}
