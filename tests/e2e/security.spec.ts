import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import path from 'node:path'
import { type APIRequestContext, type APIResponse, request as playwrightRequest } from '@playwright/test'
import postgres from 'postgres'
import { hashPassword } from '../../lib/auth/hashPassword'
import { HOUSEKEEPING_TASKS } from '../../lib/jobs/jobKeys'
import { isPublicApi, isPublicPage, listApiRoutes, listPages, samplePath } from '../attack/appRoutes'
import { collectSecrets, findSecrets, readTexts } from '../chaos/secrets'
import { baseUrl, credentials, expect, loginAs, type Role, stockTestVault, test } from './fixtures'

// Intruders, against the real stack over HTTP: every API route and page is
// read from app/ (a new one is covered without editing this file) and tried without a
// session, as staff where only admins may go, and cross-origin with a valid session.
// Then the cookies, the security headers, the login throttle, and finally the stack's
// logs and every error body collected here are searched for secrets.

const root = path.resolve(import.meta.dirname, '..', '..')
const routes = listApiRoutes(root)
const pages = listPages(root)
const errorBodies: string[] = []
const EVIL = 'https://evil.example'

type StackEnv = Record<string, string>
function stackEnv(): StackEnv {
  const raw = process.env.E2E_STACK_ENV
  if (!raw) throw new Error('E2E_STACK_ENV is not set: run through playwright.config.ts')
  return JSON.parse(raw) as StackEnv
}

/** A fresh cookie jar, signed in as `role` through next-auth's credentials flow (or not signed in). */
async function contextAs(role?: Role, headers: Record<string, string> = {}): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: baseUrl(), extraHTTPHeaders: headers })
  if (role) {
    const ok = await signIn(ctx, credentials[role].email, credentials[role].password)
    expect(ok, `sign-in as ${role}`).toBe(true)
  }
  return ctx
}

/** The credentials flow; true when a session for that email exists afterwards. */
async function signIn(
  ctx: APIRequestContext,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<boolean> {
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf', { headers })).json()) as { csrfToken: string }
  await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, callbackUrl: baseUrl() },
    headers: { origin: baseUrl(), ...headers },
    maxRedirects: 0,
  })
  const session = (await (await ctx.get('/api/auth/session')).json()) as { user?: { email?: string } } | null
  return session?.user?.email === email
}

async function call(
  ctx: APIRequestContext,
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<APIResponse> {
  const mutating = method !== 'GET' && method !== 'HEAD'
  return ctx.fetch(url, {
    method,
    headers: { ...(mutating ? { 'content-type': 'application/json', origin: baseUrl() } : {}), ...headers },
    data: mutating ? '{}' : undefined,
    maxRedirects: 0,
  })
}

/** docs/api.md's error shape with the given code; the body is kept for the secrets search. */
async function expectError(res: APIResponse, status: number, code: string, what: string) {
  const text = await res.text()
  errorBodies.push(text)
  expect(res.status(), `${what}: ${text.slice(0, 200)}`).toBe(status)
  expect(JSON.parse(text), what).toMatchObject({ error: { code, message: expect.any(String) } })
}

/** The script-src directive of a CSP, as its list of sources. */
function scriptSources(csp: string | undefined): string[] {
  const directive = (csp ?? '')
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('script-src '))
  return directive ? directive.split(/\s+/).slice(1) : []
}

/**
 * `page`: a page answer (the proxy's policy, with this response's nonce); else an API or
 * static answer (next.config.js's policy). Scripts never get 'unsafe-inline'.
 */
function expectSecurityHeaders(res: APIResponse, what: string, { page = false }: { page?: boolean } = {}) {
  const h = res.headers()
  expect(
    res.headersArray().filter((x) => x.name.toLowerCase() === 'content-security-policy'),
    `${what}: one CSP header`,
  ).toHaveLength(1)
  const scripts = scriptSources(h['content-security-policy'])
  expect(scripts, `${what}: script-src`).toContain("'self'")
  expect(scripts, `${what}: script-src`).not.toContain("'unsafe-inline'")
  if (page)
    expect(
      scripts.filter((x) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(x)),
      `${what}: a nonce in script-src`,
    ).toHaveLength(1)
  expect(h['content-security-policy'], `${what}: CSP`).toMatch(/frame-ancestors 'none'/)
  expect(h['content-security-policy'], `${what}: CSP`).toMatch(/default-src 'self'/)
  expect(h['content-security-policy'], `${what}: CSP`).not.toMatch(/unsafe-eval/)
  expect(h['x-content-type-options'], `${what}: nosniff`).toBe('nosniff')
  expect(h['x-frame-options'], `${what}: X-Frame-Options`).toBe('DENY')
  expect(h['referrer-policy'], `${what}: Referrer-Policy`).toBeTruthy()
  expect(h['x-powered-by'], `${what}: X-Powered-By`).toBeUndefined()
}

let db: postgres.Sql
test.beforeAll(() => {
  // the owner's: fixtures, not the web's role
  db = postgres(stackEnv().DATABASE_ADMIN_URL, { max: 2, onnotice: () => {} })
})
test.afterAll(async () => {
  await db?.end({ timeout: 5 })
})

/** The worker's housekeeping (nonce_health, reserve_check, deposit_watch...) records its runs on its own. */
const PERIODIC_TASKS = [...HOUSEKEEPING_TASKS]

async function writes(): Promise<Record<string, number>> {
  const [row] = await db<Record<string, number>[]>`
    select (select count(*)::int from mint_orders) as orders, (select count(*)::int from vault_bars) as bars,
           (select count(*)::int from job_events where task <> all(${PERIODIC_TASKS})) as events, (select count(*)::int from audit_log) as audit,
           (select count(*)::int from graphile_worker._private_jobs) as jobs`
  return row
}

test('the route and page lists are read from app/ and hold what docs/api.md names', () => {
  const patterns = routes.map((r) => r.pattern)
  for (const p of [
    '/api/gold/mint',
    '/api/gold/mint/[orderId]',
    '/api/health',
    '/api/ready',
    '/api/admin/jobs',
    '/api/admin/jobs/retry',
  ])
    expect(patterns).toContain(p)
  expect(
    routes.every((r) => r.methods.length > 0),
    JSON.stringify(routes),
  ).toBe(true)
  expect(pages.map((p) => p.pattern)).toEqual(
    expect.arrayContaining(['/mints', '/mints/new', '/mints/[orderId]', '/login', '/admin']),
  )
})

test('every API route without a session: 401 unauthenticated (health, ready, auth and the bearer-token metrics excepted)', async () => {
  const anon = await contextAs()
  let tried = 0
  for (const r of routes) {
    for (const method of r.methods) {
      const url = samplePath(r.pattern)
      const res = await call(anon, method, url)
      expectSecurityHeaders(res, `${method} ${url}`)
      if (isPublicApi(r.pattern)) continue
      tried++
      await expectError(res, 401, 'unauthenticated', `${method} ${url} without a session`)
    }
  }
  expect(tried).toBeGreaterThanOrEqual(8)
  expect((await anon.get('/api/health')).status()).toBe(200)
  expect((await anon.get('/api/ready')).status()).toBe(200)
  // the metrics need their bearer token, not a session: refused without it, even for a signed-in admin
  await expectError(await anon.get('/api/metrics'), 401, 'unauthenticated', 'metrics without a token')
  const admin = await contextAs('admin')
  await expectError(await admin.get('/api/metrics'), 401, 'unauthenticated', 'metrics with a session but no token')
  await expectError(
    await admin.get('/api/metrics', { headers: { authorization: 'Bearer wrong' } }),
    401,
    'unauthenticated',
    'metrics with a wrong token',
  )
  expect(
    (await anon.get('/api/metrics', { headers: { authorization: `Bearer ${stackEnv().METRICS_TOKEN}` } })).status(),
  ).toBe(200)
  await Promise.all([anon.dispose(), admin.dispose()])
})

test('every page without a session: a redirect to /login', async () => {
  const anon = await contextAs()
  for (const p of pages) {
    const url = samplePath(p.pattern)
    const res = await anon.get(url, { maxRedirects: 0 })
    if (isPublicPage(p.pattern)) {
      expect(res.status(), url).toBe(200)
      expectSecurityHeaders(res, url)
      continue
    }
    expect([302, 303, 307, 308], `${url}: ${res.status()}`).toContain(res.status())
    const location = new URL(res.headers().location ?? '', baseUrl())
    expect(location.origin, url).toBe(new URL(baseUrl()).origin)
    expect(location.pathname, url).toBe('/login')
  }
  await anon.dispose()
})

test('staff: 403 forbidden on every admin API route, the forbidden page on every admin page', async ({ page }) => {
  const staff = await contextAs('staff')
  const adminRoutes = routes.filter((r) => r.pattern.startsWith('/api/admin'))
  expect(adminRoutes.length).toBeGreaterThanOrEqual(5)
  for (const r of adminRoutes) {
    for (const method of r.methods) {
      const url = samplePath(r.pattern)
      await expectError(await call(staff, method, url), 403, 'forbidden', `staff ${method} ${url}`)
    }
  }
  await staff.dispose()

  await loginAs(page, 'staff')
  const adminPages = pages.filter((p) => p.pattern === '/admin' || p.pattern.startsWith('/admin/'))
  expect(adminPages.length).toBeGreaterThanOrEqual(3)
  for (const p of adminPages) {
    const url = samplePath(p.pattern)
    await page.goto(url)
    await expect(page, url).toHaveURL(/\/forbidden/)
    await expect(page.getByRole('heading', { name: /not allowed|forbidden/i })).toBeVisible()
  }
})

test("staff reading another user's order: 404, from the API and the page", async ({ page }) => {
  const admin = await contextAs('admin')
  // a bar of its own: a list for a vault of its own, imported first
  const { vault, bars } = await stockTestVault(admin, { prefix: 'SEC', count: 1 })
  const serial = bars[0]?.serial ?? ''
  const created = await admin.post('/api/gold/mint', {
    headers: { origin: baseUrl() },
    data: {
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      amount: '401.084',
      vaultProof: {
        vault,
        receiptRef: 'VR-SEC',
        documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        bars: [{ serial, refiner: 'Valcambi SA' }],
      },
    },
  })
  expect(created.status()).toBe(202)
  const { orderId } = (await created.json()) as { orderId: string }
  expect((await admin.get(`/api/gold/mint/${orderId}`)).status()).toBe(200)

  const staff = await contextAs('staff')
  await expectError(await staff.get(`/api/gold/mint/${orderId}`), 404, 'not_found', "staff GET another's order")
  // not listed for them either
  const list = (await (await staff.get('/api/gold/mint?limit=100')).json()) as { items: { orderId: string }[] }
  expect(list.items.map((i) => i.orderId)).not.toContain(orderId)
  await Promise.all([admin.dispose(), staff.dispose()])

  await loginAs(page, 'staff')
  const res = await page.goto(`/mints/${orderId}`)
  expect(res?.status()).toBe(404)
  await expect(page.getByText(serial)).toHaveCount(0)
})

test('a cross-origin POST with a valid session cookie: 403 forbidden, nothing written', async () => {
  const admin = await contextAs('admin')
  const anon = await contextAs()
  const posts = routes.filter(
    (r) => !isPublicApi(r.pattern) && r.methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)),
  )
  expect(posts.length).toBeGreaterThanOrEqual(4)
  const before = await writes()
  const attempts: Record<string, string>[] = [
    { origin: EVIL },
    { origin: 'null' },
    { origin: `${baseUrl()}.evil.example` },
    { origin: baseUrl().replace('http://', 'https://') },
    { 'sec-fetch-site': 'cross-site' }, // no Origin at all: only a same-origin Sec-Fetch-Site would do
  ]
  for (const r of posts) {
    for (const method of r.methods.filter((m) => m !== 'GET')) {
      const url = samplePath(r.pattern)
      for (const headers of attempts) {
        const res = await admin.fetch(url, {
          method,
          headers: { 'content-type': 'application/json', ...headers },
          data: '{"jobIds":["1"]}',
          maxRedirects: 0,
        })
        await expectError(res, 403, 'forbidden', `${method} ${url} with ${JSON.stringify(headers)}`)
      }
      // what a hostile page's <form> would send
      const form = await admin.fetch(url, {
        method,
        headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
        data: 'to=0x1',
        maxRedirects: 0,
      })
      await expectError(form, 403, 'forbidden', `${method} ${url} as a cross-site form`)
    }
  }
  expect(await writes()).toEqual(before)
  // next-auth's own sign-in refuses a POST without its CSRF token
  await anon.post('/api/auth/callback/credentials', {
    form: { email: credentials.staff.email, password: credentials.staff.password },
    headers: { origin: EVIL },
    maxRedirects: 0,
  })
  const session = (await (await anon.get('/api/auth/session')).json()) as { user?: unknown } | null
  expect(session?.user).toBeUndefined()
  await Promise.all([admin.dispose(), anon.dispose()])
})

test('session and auth cookies: HttpOnly and SameSite (Secure is checked in production mode by tests/attack/sessionCookie.int.test.ts)', async () => {
  const ctx = await playwrightRequest.newContext({ baseURL: baseUrl() })
  const csrf = await ctx.get('/api/auth/csrf')
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const callback = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: credentials.staff.email, password: credentials.staff.password, callbackUrl: baseUrl() },
    headers: { origin: baseUrl() },
    maxRedirects: 0,
  })
  const setCookies = [...csrf.headersArray(), ...callback.headersArray()]
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => h.value)
  const names = setCookies.map((c) => c.split('=')[0])
  expect(names).toContain('authjs.session-token')
  for (const cookie of setCookies) {
    expect(cookie, cookie.split('=')[0]).toMatch(/;\s*HttpOnly/i)
    expect(cookie, cookie.split('=')[0]).toMatch(/;\s*SameSite=(Lax|Strict)/i)
    expect(cookie, cookie.split('=')[0]).toMatch(/;\s*Path=\//i)
  }
  // an 8-hour session at most (docs/decisions/004-next-auth-v5.md)
  const session = setCookies.find((c) => c.startsWith('authjs.session-token=')) ?? ''
  const maxAge = /Max-Age=(\d+)/i.exec(session)?.[1]
  const expires = /Expires=([^;]+)/i.exec(session)?.[1]
  const lifetimeS = maxAge !== undefined ? Number(maxAge) : expires ? (Date.parse(expires) - Date.now()) / 1000 : 0
  expect(lifetimeS).toBeGreaterThan(0)
  expect(lifetimeS).toBeLessThanOrEqual(8 * 3600 + 60)
  await ctx.dispose()
})

test('the session cookie is not readable from page scripts', async ({ page }) => {
  await loginAs(page, 'staff')
  await page.goto('/mints')
  expect(await page.evaluate(() => document.cookie)).not.toMatch(/session-token/)
})

test('security headers on every page (signed in as admin) and every API answer', async () => {
  const admin = await contextAs('admin')
  for (const p of pages) {
    const url = samplePath(p.pattern)
    const res = await admin.get(url, { maxRedirects: 0 })
    expect(res.status(), url).toBeLessThan(500)
    expectSecurityHeaders(res, `page ${url} (${res.status()})`, { page: true })
  }
  // the proxy's redirects of an anonymous visitor carry the page policy too
  const anon = await contextAs()
  for (const p of pages.filter((x) => !isPublicPage(x.pattern)))
    expectSecurityHeaders(await anon.get(samplePath(p.pattern), { maxRedirects: 0 }), `redirect of ${p.pattern}`, {
      page: true,
    })
  await anon.dispose()
  for (const r of routes)
    for (const method of r.methods)
      expectSecurityHeaders(await call(admin, method, samplePath(r.pattern)), `${method} ${r.pattern} as admin`)
  expectSecurityHeaders(await admin.get('/api/no-such-route'), 'unknown API path')
  expectSecurityHeaders(await admin.get('/no-such-page'), 'unknown page', { page: true })
  // a nonce is for one response only
  const nonces = new Set<string>()
  for (let i = 0; i < 5; i++)
    for (const x of scriptSources((await admin.get('/admin')).headers()['content-security-policy']))
      if (x.startsWith("'nonce-")) nonces.add(x)
  expect(nonces.size).toBe(5)
  await admin.dispose()
})

test('the nonce CSP: every script of a page carries its nonce, the pages work, no CSP violation; an injected inline handler does not run (issue 13)', async ({
  page,
}) => {
  const consoleViolations: string[] = []
  page.on('console', (m) => {
    if (/content security policy|content-security-policy/i.test(m.text()))
      consoleViolations.push(`${page.url()}: ${m.text()}`)
  })
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] }
    w.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)
  /**
   * the nonce of the page's CSP header, and the nonces its script
   * elements carry (a browser hides the attribute, not the property)
   */
  const visit = async (url: string) => {
    const res = await page.goto(url)
    expect(res?.status(), url).toBe(200)
    const nonce = /'nonce-([^']+)'/.exec((await res?.allHeaders())?.['content-security-policy'] ?? '')?.[1]
    expect(nonce, `${url}: nonce`).toBeTruthy()
    const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.nonce))
    expect(scripts.length, `${url}: scripts`).toBeGreaterThan(0)
    expect(new Set(scripts), `${url}: every script carries the nonce`).toEqual(new Set([nonce]))
    expect(await violations(), url).toEqual([])
  }

  await visit('/login')
  // the sign-in button is enabled by React once hydrated: Next's scripts ran under the nonce
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled()
  await loginAs(page, 'admin')
  // the dashboard is drawn by client components from the API: it shows only if the scripts ran
  await visit('/admin')
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible()
  for (const url of ['/admin/jobs', '/admin/dead', '/mints', '/mints/new']) await visit(url)
  await expect(page.getByRole('button', { name: 'Request mint' })).toBeVisible()
  expect(consoleViolations).toEqual([])

  // what 'unsafe-inline' would have let through: markup injected with an inline handler
  await page.evaluate(() => {
    const div = document.createElement('div')
    div.innerHTML = '<img src="/no-such-image.png" onerror="window.__injected = 1">'
    document.body.appendChild(div)
  })
  await expect.poll(async () => (await violations()).some((v) => v.startsWith('script-src'))).toBe(true)
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined()
})

/** 'open' when a TCP connection to host:port is accepted, else the error code (ECONNREFUSED, ...). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 })
    socket.once('connect', () => {
      socket.destroy()
      resolve('open')
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve('timeout')
    })
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
  })
}

test("the local web listens on 127.0.0.1 only: not on the machine's other addresses (issue 13)", async () => {
  const port = Number(new URL(baseUrl()).port)
  expect(await tryConnect('127.0.0.1', port)).toBe('open')
  // every address of this machine but loopback and link-local (those need a scope id)
  const external = Object.values(networkInterfaces())
    .flatMap((addrs) => addrs ?? [])
    .filter((a) => !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a.address)
  test.skip(external.length === 0, 'this machine has no address besides loopback')
  for (const address of external) expect(await tryConnect(address, port), address).not.toBe('open')
})

/** The session cookie a context holds now, as a Cookie header (what a thief would copy). */
async function sessionCookieOf(ctx: APIRequestContext): Promise<string> {
  const cookie = (await ctx.storageState()).cookies.find((c) => c.name.endsWith('authjs.session-token'))
  expect(cookie, 'a session cookie').toBeDefined()
  return `${cookie?.name}=${cookie?.value}`
}

/** A cookie kept from before a sign-out, replayed: 401 on the API (the order intake included), /login for a page. */
async function expectSignedOut(cookie: string, what: string) {
  const thief = await playwrightRequest.newContext({ baseURL: baseUrl(), extraHTTPHeaders: { cookie } })
  await expectError(await thief.get('/api/gold/mint'), 401, 'unauthenticated', `${what}: GET /api/gold/mint`)
  await expectError(await call(thief, 'POST', '/api/gold/mint'), 401, 'unauthenticated', `${what}: POST /api/gold/mint`)
  const page = await thief.get('/mints', { maxRedirects: 0 })
  expect(page.status(), `${what}: /mints`).toBeGreaterThanOrEqual(300)
  expect(page.status(), `${what}: /mints`).toBeLessThan(400)
  expect(new URL(page.headers().location ?? '', baseUrl()).pathname, `${what}: /mints`).toBe('/login')
  const session = (await (await thief.get('/api/auth/session')).json()) as { user?: unknown } | null
  expect(session?.user, `${what}: next-auth's own session endpoint`).toBeUndefined()
  await thief.dispose()
}

test('sign-out through POST /api/auth/signout ends the session on the server: the cookie kept from before gets 401 and /login', async () => {
  const ctx = await contextAs('staff')
  const cookie = await sessionCookieOf(ctx)
  const other = await contextAs('staff') // the same user's other session
  expect((await ctx.get('/api/gold/mint')).status(), 'before the sign-out').toBe(200)
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string }
  const out = await ctx.post('/api/auth/signout', {
    form: { csrfToken, callbackUrl: `${baseUrl()}/login` },
    headers: { origin: baseUrl() },
    maxRedirects: 0,
  })
  expect(out.status()).toBe(302)
  await expectSignedOut(cookie, 'replayed after POST /api/auth/signout')
  expect((await other.get('/api/gold/mint')).status(), 'the other session stands').toBe(200)
  await Promise.all([ctx.dispose(), other.dispose()])
})

test('sign-out by the header button ends the session on the server too', async ({ page }) => {
  await loginAs(page, 'approver')
  const cookie = await sessionCookieOf(page.context().request)
  await page.goto('/approvals')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login/)
  await expectSignedOut(cookie, 'replayed after the Sign out button')
})

test('login brute force is throttled per account and address, and per address: the attacker is locked out, the account holder is not', async () => {
  // own users and own (forwarded) client IPs: the throttle of the shared dev users and of this machine stays untouched
  const run = Date.now().toString(36)
  const password = `right-${run}-password`
  const victim = `brute-${run}@mintdesk.test`
  const other = `brute2-${run}@mintdesk.test`
  const hash = await hashPassword({ password })
  await db`insert into users (email, name, role, password_hash) values (${victim}, 'Brute force target', 'staff', ${hash}), (${other}, 'Brute force target 2', 'staff', ${hash})`
  const from = (octet: number) => ({ 'x-forwarded-for': `198.51.100.${octet}` })
  const attacker = from(Date.now() % 120)
  const holder = from(130 + (Date.now() % 120))

  // per account and address: five wrong passwords from the attacker's address, then the right one from there is refused
  const ctx = await contextAs()
  for (let i = 0; i < 5; i++) expect(await signIn(ctx, victim, `wrong-${i}`, attacker)).toBe(false)
  expect(await signIn(ctx, victim, password, attacker), 'the 6th try, right password, same address').toBe(false)
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string }
  const refused = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: victim, password },
    headers: { origin: baseUrl(), ...attacker },
    maxRedirects: 0,
  })
  expect(refused.headers().location ?? '', 'the refusal says why').toMatch(/code=throttled/)
  // ... while the account holder, from their own address, signs in: the attacker cannot lock them out
  const holderCtx = await contextAs()
  expect(await signIn(holderCtx, victim, password, holder), 'right password from the holder’s address').toBe(true)

  // per address: twenty wrong tries from one address at unknown emails, then a right password from
  // it is refused, from another accepted
  const fromIp = { 'x-forwarded-for': `203.0.113.${Date.now() % 250}` }
  for (let i = 0; i < 20; i++)
    expect(await signIn(ctx, `nobody-${run}-${i}@mintdesk.test`, 'guess', fromIp)).toBe(false)
  expect(await signIn(ctx, other, password, fromIp), 'right password from the throttled address').toBe(false)
  const fresh = await contextAs()
  expect(
    await signIn(fresh, other, password, { 'x-forwarded-for': '192.0.2.77' }),
    'right password from elsewhere',
  ).toBe(true)
  await Promise.all([ctx.dispose(), holderCtx.dispose(), fresh.dispose()])
})

test('no secret in the stack logs or in any error body (passwords, AUTH_SECRET, metrics token, database password, KMS private keys)', async () => {
  // this test makes its own error traffic too (a failed test restarts
  // Playwright's worker, and the bodies collected above with it)
  const anon = await contextAs()
  const staff = await contextAs('staff')
  const env = stackEnv()
  const bodies = async (res: APIResponse) => errorBodies.push(await res.text())
  for (const r of routes) for (const method of r.methods) await bodies(await call(anon, method, samplePath(r.pattern)))
  for (const r of routes.filter((x) => x.pattern.startsWith('/api/admin')))
    for (const method of r.methods) await bodies(await call(staff, method, samplePath(r.pattern)))
  const mint = (headers: Record<string, string>, data: string) =>
    staff.fetch('/api/gold/mint', {
      method: 'POST',
      headers: { origin: baseUrl(), 'content-type': 'application/json', ...headers },
      data,
    })
  await bodies(await mint({ origin: EVIL }, '{}'))
  await bodies(await mint({}, '{"to":'))
  await bodies(await mint({ 'content-type': 'text/plain' }, '{}'))
  await bodies(await mint({}, JSON.stringify({ vault: 'x'.repeat(70_000) })))
  await bodies(
    await mint(
      {},
      JSON.stringify({ to: '0x0', amount: '-1e3', vaultProof: { vault: '\u0000', bars: [{ __proto__: 1 }] } }),
    ),
  )
  await bodies(await mint({ 'idempotency-key': 'k'.repeat(200) }, '{}'))
  await bodies(await staff.get('/api/gold/mint/not-a-uuid'))
  await bodies(await staff.get('/api/gold/mint?limit=abc&cursor=%25%25'))
  await bodies(await anon.get('/api/metrics', { headers: { authorization: 'Bearer nope' } }))
  // failed sign-ins (their passwords must not be logged either), then the real ones
  for (const pw of ['wrong-password-1', credentials.admin.password])
    await signIn(anon, credentials.staff.email, pw, { 'x-forwarded-for': '192.0.2.200' })
  await signIn(anon, credentials.admin.email, credentials.admin.password, { 'x-forwarded-for': '192.0.2.201' })
  await Promise.all([anon.dispose(), staff.dispose()])
  const echoed = errorBodies

  const dataDir = process.env.E2E_DATA_DIR ?? path.join(root, '.data', 'e2e')
  const secrets = collectSecrets({ env, kmsKeysFile: path.join(dataDir, 'kms', 'keys.json') })
  expect(
    secrets.some((x) => x.name.startsWith('KMS private key')),
    'the KMS key material was found to search for',
  ).toBe(true)
  expect(echoed.length).toBeGreaterThan(20)
  const texts = [...readTexts([path.join(dataDir, 'children.log')]), { where: 'error bodies', text: echoed.join('\n') }]
  expect(texts[0]?.text.length ?? 0, 'the stack wrote a log').toBeGreaterThan(0)
  expect(findSecrets(secrets, texts)).toEqual([])
})
