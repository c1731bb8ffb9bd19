import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { encode } from 'next-auth/jwt'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { reserveChecks } from '@/db/schema/reserves'
import { users } from '@/db/schema/users'
import type { UserRole } from '@/lib/web/auth/SessionUser'
import { DEV_MINTER_ADDRESS, DEV_MINTER_DOMAIN } from '@/scripts/stack/devChain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { type ApiRoute, type AppPage, listApiRoutes, listPages, samplePath } from './appRoutes'

// THE role matrix (docs/architecture.md invariant 6): every API route found under
// app/api and every page found under app, against every kind of caller, answers exactly
// what ACCESS below says. Nothing of the auth path is faked but the request scope: each
// caller holds a real session cookie (next-auth's JWE, encrypted as at sign-in) that the
// real getSessionUser decrypts and checks against the users table (role, disabled,
// session_version, absolute lifetime), as the web's own database role. Only
// `next/headers` is replaced (a Request built here has no Next request scope).
// A route or page missing from ACCESS fails the test: whoever adds one declares who may
// use it.

const cookieOfCall = new AsyncLocalStorage<string | null>()
vi.mock('next/headers', () => ({
  headers: async () => {
    const cookie = cookieOfCall.getStore()
    return new Headers(cookie ? { cookie } : {})
  },
}))

type Access = 'public' | readonly UserRole[]
const ALL: readonly UserRole[] = ['staff', 'approver', 'admin']
/** who reads orders: every role (staff their own), the auditor included */
const READERS: readonly UserRole[] = ['staff', 'approver', 'admin', 'auditor']
const ADMIN: readonly UserRole[] = ['admin']
/** what an admin reads, an auditor reads (and changes nothing) */
const ADMIN_READ: readonly UserRole[] = ['admin', 'auditor']

/** docs/api.md, route by route ("METHOD /pattern"). */
const API_ACCESS: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/metrics': 'public', // its own bearer token, no session
  'GET /api/openapi.json': 'public', // the contract, as docs/api.md is
  'GET /api/reserves': 'public',
  'GET /api/reserves/history': 'public',
  'GET /api/reserves/lookup': 'public',
  'GET /api/reserves/attestation': 'public',
  // next-auth's own endpoints (sign-in, csrf, session): public; not called here (next-auth's ESM needs Next's
  // resolver), see sessionCookie.int.test.ts
  'GET /api/auth/[...nextauth]': 'public',
  'POST /api/auth/[...nextauth]': 'public',
  'POST /api/gold/mint': ['staff', 'admin'],
  'GET /api/gold/mint': READERS,
  'GET /api/gold/mint/[orderId]': READERS,
  'GET /api/gold/mint/[orderId]/events': READERS, // the order live (Server-Sent Events)
  'GET /api/gold/recipients': READERS, // the allowlist, address and label: the mint form's picker
  'GET /api/gold/mint/[orderId]/approval': ['approver', 'admin'], // the MintIntent to sign
  'POST /api/gold/mint/[orderId]/approve': ['approver', 'admin'],
  'POST /api/gold/mint/[orderId]/reject': ['approver', 'admin'],
  // redemptions: staff request, a second person signs (never the requester)
  'GET /api/gold/deposits': READERS,
  'GET /api/gold/redemptions': READERS,
  'POST /api/gold/redemptions': ['staff', 'admin'],
  'GET /api/gold/redemptions/[redemptionId]': READERS,
  'GET /api/gold/redemptions/[redemptionId]/approval': ['approver', 'admin'],
  'POST /api/gold/redemptions/[redemptionId]/approve': ['approver', 'admin'],
  'POST /api/gold/redemptions/[redemptionId]/reject': ['approver', 'admin'],
  'GET /api/vault/bars': READERS,
  'POST /api/vault/bar-lists/typed-data': ADMIN, // the BarList typed data for the custodian to sign
  // the user's own signing keys, and the dev signer (404 in production and for users without a dev key)
  'GET /api/me/signing-key': ALL,
  'POST /api/me/signing-key': ALL,
  'POST /api/dev/sign': ALL,
  'GET /api/admin/vault/bar-lists': ADMIN_READ,
  'POST /api/admin/vault/bar-lists': ADMIN,
  'GET /api/admin/audit': ADMIN_READ,
  'GET /api/admin/audit/export': ADMIN_READ,
  'GET /api/admin/jobs': ADMIN_READ,
  'GET /api/admin/jobs/[jobId]': ADMIN_READ,
  'POST /api/admin/jobs/[jobId]/retry': ADMIN,
  'POST /api/admin/jobs/[jobId]/cancel': ADMIN,
  'POST /api/admin/jobs/retry': ADMIN,
  'GET /api/admin/metrics': ADMIN_READ,
  'GET /api/admin/system': ADMIN_READ,
  'GET /api/admin/reconciliation': ADMIN_READ,
  'POST /api/admin/reconciliation/[id]/resolve': ADMIN,
  // a signer's pending nonce in the operator's hands: the auditor sees it on GET /api/admin/system, changes nothing
  'POST /api/admin/signers/[address]/nonces/[nonce]/speed-up': ADMIN,
  'POST /api/admin/signers/[address]/nonces/[nonce]/cancel': ADMIN,
  'POST /api/admin/signers/[address]/resync': ADMIN,
  'GET /api/admin/dead-letters/sqs': ADMIN_READ,
  'POST /api/admin/dead-letters/sqs/retry': ADMIN,
  'GET /api/admin/recipients': ADMIN_READ,
  'POST /api/admin/recipients': ADMIN,
  'DELETE /api/admin/recipients/[address]': ADMIN,
  'GET /api/admin/limits': ADMIN_READ,
  'PUT /api/admin/limits': ADMIN,
  'GET /api/admin/webhooks': ADMIN_READ,
  'POST /api/admin/webhooks': ADMIN,
  'DELETE /api/admin/webhooks/[id]': ADMIN,
  'GET /api/admin/webhooks/[id]/deliveries': ADMIN_READ,
  'POST /api/admin/webhooks/[id]/rotate-secret': ADMIN,
  'POST /api/admin/webhooks/deliveries/[deliveryId]/redeliver': ADMIN,
  'GET /api/admin/users': ADMIN_READ,
  'PATCH /api/admin/users/[userId]': ADMIN,
  // control changes: asked for by one admin, confirmed or rejected by another
  'GET /api/admin/changes': ADMIN_READ,
  'POST /api/admin/changes': ADMIN,
  'GET /api/admin/signing': ADMIN_READ,
  'POST /api/admin/signing/stop': ADMIN,
  'POST /api/admin/signing/resume': ADMIN,
  'POST /api/admin/changes/typed-data': ADMIN,
  'GET /api/admin/changes/[changeId]/approval': ADMIN_READ,
  'POST /api/admin/changes/[changeId]/confirm': ADMIN,
  'POST /api/admin/changes/[changeId]/reject': ADMIN,
  // compliance operations: an admin asks, an approver (or another admin) signs; the auditor and approvers read
  'GET /api/admin/compliance': ['admin', 'auditor', 'approver'],
  'POST /api/admin/compliance/freeze': ADMIN,
  'POST /api/admin/compliance/unfreeze': ADMIN,
  'POST /api/admin/compliance/pause': ADMIN,
  'POST /api/admin/compliance/unpause': ADMIN,
  'GET /api/admin/compliance/operations/[operationId]/approval': ['admin', 'auditor', 'approver'],
  'POST /api/admin/compliance/operations/[operationId]/approve': ['approver', 'admin'],
  'POST /api/admin/compliance/operations/[operationId]/reject': ['approver', 'admin'],
}

/** Pages: who sees them ('public': anyone, signed in or not). */
const PAGE_ACCESS: Record<string, Access> = {
  '/login': 'public',
  '/forbidden': 'public',
  '/reserves': 'public',
  '/': READERS, // sends each role home, a visitor to /login
  '/mints': READERS, // staff: their own orders; approvers, admins and auditors: every order
  '/mints/[orderId]': READERS,
  '/mints/new': ['staff', 'admin'], // approvers approve, they do not request
  '/approvals': ['approver', 'admin'],
  '/redemptions': READERS, // deposits and redemptions; staff and admins request, the form is theirs only
  '/redemptions/[redemptionId]': READERS, // staff: their own; approvers and admins sign or reject there
  '/account/signing-key': ALL, // binds the user's wallet key
  '/admin': ADMIN_READ,
  '/admin/jobs': ADMIN_READ,
  '/admin/jobs/[jobId]': ADMIN_READ,
  '/admin/dead': ADMIN_READ,
  '/admin/vault': ADMIN_READ,
  '/admin/users': ADMIN_READ,
  '/admin/controls': ADMIN_READ, // recipients and limits
  '/admin/changes': ADMIN_READ, // control changes awaiting a second admin
  '/admin/compliance': ADMIN_READ, // freeze, unfreeze, pause, unpause; the chain's state
  '/admin/webhooks': ADMIN_READ, // subscriptions, deliveries, redeliver
  '/admin/audit': ADMIN_READ, // the audit log and its export
}

/**
 * The callers. `actsAs`: the role the server must act on, or null when the session must be
 * refused (401 / the login page).
 */
type Caller = { name: string; actsAs: UserRole | null; cookie: () => string | null }

const root = path.resolve(import.meta.dirname, '..', '..')
const ORIGIN = 'http://localhost:3000'
const HOUR = 60 * 60
const routes = listApiRoutes(root)
const pages = listPages(root)
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
type PageModule = { default: (props: Record<string, unknown>) => unknown }

let t: TestDatabase
let closeDb: () => Promise<void> = async () => {}
const cookies = new Map<string, string>()
let callers: Caller[] = []

async function cookieFor(claims: {
  id: string
  email: string
  role: UserRole
  sv: number
  authTime: number
  sid?: string
}): Promise<string> {
  const { sessionCookie } = await import('@/lib/web/auth/sessionCookie')
  const { cookieName, secret } = sessionCookie()
  // the claims nextAuthConfig's jwt callback writes at sign-in (a session id of its own per sign-in)
  const token = { sid: randomUUID(), ...claims, sub: claims.id }
  return `${cookieName}=${await encode({ token, secret, salt: cookieName })}`
}

beforeAll(async () => {
  // every refused session logs a 'session refused' line: expected here, by the hundred
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  t = await createTestDatabase()
  process.env.DATABASE_URL = t.roleUrl('web') // every route and page runs on the web's grants
  // the chain the approval routes take the intent's domain from (never called: the probed orders do not exist)
  process.env.RPC_URL = 'http://127.0.0.1:8545'
  process.env.CHAIN_ID = String(DEV_MINTER_DOMAIN.chainId)
  process.env.MINTER_ADDRESS = DEV_MINTER_ADDRESS
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
  const insert = async (email: string, role: UserRole, extra: { disabled?: boolean; sessionVersion?: number } = {}) => {
    const [row] = await t.db
      .insert(users)
      .values({ email, name: email, role, ...extra })
      .returning({ id: users.id })
    if (!row) throw new Error('no user')
    return row.id
  }
  const now = Math.floor(Date.now() / 1000)
  const session = async (
    key: string,
    email: string,
    role: UserRole,
    over: { sv?: number; authTime?: number; tokenRole?: UserRole } = {},
  ) => {
    const id = await insert(email, role)
    cookies.set(
      key,
      await cookieFor({
        id,
        email,
        role: over.tokenRole ?? role,
        sv: over.sv ?? 0,
        authTime: over.authTime ?? now - 60,
      }),
    )
    return id
  }
  await session('staff', 'staff@matrix.test', 'staff')
  await session('approver', 'approver@matrix.test', 'approver')
  const adminId = await session('admin', 'admin@matrix.test', 'admin')
  await session('auditor', 'auditor@matrix.test', 'auditor')
  // a token that still says admin for a user whose row says staff (same version): the row decides
  await session('tokenSaysAdmin', 'was-admin@matrix.test', 'staff', { tokenRole: 'admin' })
  // signed in as admin, then demoted to staff by another admin: the change bumps session_version
  const demotedId = await session('demoted', 'demoted@matrix.test', 'admin')
  const { updateUser } = await import('@/lib/web/users/updateUser')
  const { getWebDb } = await import('@/lib/web/webProcess')
  closeDb = () => getWebDb().close()
  await updateUser(getWebDb().db, {
    userId: demotedId,
    change: { role: 'staff' },
    actor: { id: adminId, email: 'admin@matrix.test' },
  })
  // signed in, then disabled by an admin
  const disabledId = await session('disabled', 'disabled@matrix.test', 'approver')
  await updateUser(getWebDb().db, {
    userId: disabledId,
    change: { disabled: true },
    actor: { id: adminId, email: 'admin@matrix.test' },
  })
  // a session issued before a later version (e.g. a role given back since)
  const oldId = await insert('old-version@matrix.test', 'admin', { sessionVersion: 3 })
  cookies.set(
    'oldVersion',
    await cookieFor({ id: oldId, email: 'old-version@matrix.test', role: 'admin', sv: 2, authTime: now - 60 }),
  )
  // signed in, then signed out: the cookie kept (stolen, or copied before the sign-out) and replayed
  const signedOutSid = randomUUID()
  const signedOutId = await insert('signed-out@matrix.test', 'admin')
  cookies.set(
    'signedOut',
    await cookieFor({
      id: signedOutId,
      email: 'signed-out@matrix.test',
      role: 'admin',
      sv: 0,
      authTime: now - 60,
      sid: signedOutSid,
    }),
  )
  const { revokeSession } = await import('@/lib/web/auth/revokeSession')
  await revokeSession(getWebDb().db, { claims: { id: signedOutId, sessionId: signedOutSid, authTime: now - 60 } })
  // used all day long, but signed in longer ago than SESSION_MAX_AGE_HOURS (default 12)
  await session('pastLifetime', 'all-day@matrix.test', 'admin', { authTime: now - 13 * HOUR })

  const cookieOf = (key: string) => () => cookies.get(key) ?? null
  callers = [
    { name: 'anonymous', actsAs: null, cookie: () => null },
    { name: 'staff', actsAs: 'staff', cookie: cookieOf('staff') },
    { name: 'approver', actsAs: 'approver', cookie: cookieOf('approver') },
    { name: 'admin', actsAs: 'admin', cookie: cookieOf('admin') },
    { name: 'auditor', actsAs: 'auditor', cookie: cookieOf('auditor') },
    { name: 'token says admin, row says staff', actsAs: 'staff', cookie: cookieOf('tokenSaysAdmin') },
    { name: 'admin demoted to staff mid-session', actsAs: null, cookie: cookieOf('demoted') },
    { name: 'disabled mid-session', actsAs: null, cookie: cookieOf('disabled') },
    { name: 'session of an old version', actsAs: null, cookie: cookieOf('oldVersion') },
    { name: 'past the absolute lifetime', actsAs: null, cookie: cookieOf('pastLifetime') },
    { name: 'signed out, its cookie replayed', actsAs: null, cookie: cookieOf('signedOut') },
  ]
})

afterAll(async () => {
  await closeDb()
  await t?.drop()
})

const apiKeys = routes.flatMap((r) => r.methods.map((m) => `${m} ${r.pattern}`))
const callable = (r: ApiRoute) => !r.pattern.startsWith('/api/auth/')

async function callApi(
  r: ApiRoute,
  method: string,
  caller: Caller,
): Promise<{ status: number; code: string | undefined; text: string }> {
  const mod = (await import(path.join(root, r.file))) as Record<string, Handler>
  const handler = mod[method]
  if (!handler) throw new Error(`${r.file} exports no ${method}`)
  const params = Object.fromEntries(
    [...r.pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], decodeURIComponent(samplePath(`[${m[1]}]`))]),
  )
  const mutating = method !== 'GET' && method !== 'HEAD'
  const req = new Request(`${ORIGIN}${samplePath(r.pattern)}`, {
    method,
    headers: mutating ? { 'content-type': 'application/json', origin: ORIGIN } : {},
    body: mutating ? '{}' : undefined,
  })
  const res = await cookieOfCall.run(caller.cookie(), () => handler(req, { params: Promise.resolve(params) }))
  const text = await res.text()
  let code: string | undefined
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code
  } catch {
    code = undefined
  }
  return { status: res.status, code, text }
}

/** The layouts above a page (outermost first), but the root one (no guard; it imports the global CSS). */
function layoutsOf(page: AppPage): string[] {
  const out: string[] = []
  for (let dir = path.dirname(path.join(root, page.file)); dir !== path.join(root, 'app'); dir = path.dirname(dir)) {
    const layout = path.join(dir, 'layout.tsx')
    if (existsSync(layout)) out.unshift(layout)
  }
  return out
}

/**
 * What a page answers: 'login' (sent to sign in), 'forbidden', or 'shown' (rendered, a 404 for a sample id, or a
 * redirect elsewhere, such as / sending a user home).
 */
async function openPage(page: AppPage, caller: Caller): Promise<string> {
  const params = Object.fromEntries(
    [...page.pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], decodeURIComponent(samplePath(`[${m[1]}]`))]),
  )
  const props = { params: Promise.resolve(params), searchParams: Promise.resolve({}), children: null }
  return cookieOfCall.run(caller.cookie(), async () => {
    for (const file of [...layoutsOf(page), path.join(root, page.file)]) {
      const mod = (await import(file)) as PageModule
      try {
        await mod.default(props)
      } catch (error) {
        const digest =
          typeof error === 'object' && error !== null && 'digest' in error
            ? String((error as { digest: unknown }).digest)
            : ''
        if (digest.startsWith('NEXT_REDIRECT;')) {
          const to = digest.split(';')[2] ?? ''
          if (to === '/login' || to.startsWith('/login?')) return 'login'
          if (to === '/forbidden') return 'forbidden'
          return 'shown'
        }
        if (digest.startsWith('NEXT_HTTP_ERROR_FALLBACK;404')) return 'shown'
        return `error: ${error instanceof Error ? error.message : String(error)}`
      }
    }
    return 'shown'
  })
}

describe('the role matrix: every route and page against every caller', () => {
  it('every API route and page found on disk is declared in the access table', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20)
    expect(
      apiKeys.filter((k) => !(k in API_ACCESS)),
      'add these routes to API_ACCESS',
    ).toEqual([])
    expect(
      pages.map((p) => p.pattern).filter((p) => !(p in PAGE_ACCESS)),
      'add these pages to PAGE_ACCESS',
    ).toEqual([])
  })

  it('API: allowed roles get past the gates, other roles 403 forbidden, refused sessions and visitors 401 unauthenticated; public routes answer the same to everyone', async () => {
    const failures: string[] = []
    for (const r of routes.filter(callable)) {
      for (const method of r.methods) {
        const key = `${method} ${r.pattern}`
        const access = API_ACCESS[key]
        if (!access) continue // reported by the test above
        const answers = new Map<string, number>()
        for (const caller of callers) {
          const res = await callApi(r, method, caller)
          answers.set(caller.name, res.status)
          if (access === 'public') continue
          const expected =
            caller.actsAs === null ? 'unauthenticated' : access.includes(caller.actsAs) ? 'allowed' : 'forbidden'
          const got =
            res.code === 'unauthenticated'
              ? 'unauthenticated'
              : res.code === 'forbidden'
                ? 'forbidden'
                : res.status >= 500
                  ? `error ${res.status}`
                  : 'allowed'
          const statusOk =
            expected === 'unauthenticated' ? res.status === 401 : expected === 'forbidden' ? res.status === 403 : true
          if (got !== expected || !statusOk)
            failures.push(`${key} as ${caller.name}: expected ${expected}, got ${res.status} ${res.text.slice(0, 160)}`)
        }
        if (access === 'public' && new Set(answers.values()).size !== 1)
          failures.push(`${key} (public) answers differently by session: ${JSON.stringify([...answers])}`)
      }
    }
    expect(failures).toEqual([])
  }, 300_000)

  it('the OpenAPI document states for every operation the roles this matrix proves (x-roles, or public)', async () => {
    const { apiOperations } = await import('@/lib/web/openapi/apiOperations')
    const mismatches: string[] = []
    for (const op of apiOperations) {
      const method = op.method.toUpperCase()
      // a catch-all segment ([...nextauth]) is one path parameter in the document
      const key =
        [
          `${method} ${op.path.replace(/\{([^}]+)\}/g, '[$1]')}`,
          `${method} ${op.path.replace(/\{([^}]+)\}/g, '[...$1]')}`,
        ].find((k) => k in API_ACCESS) ?? `${method} ${op.path}`
      const access = API_ACCESS[key]
      const stated = op.roles === 'public' ? 'public' : [...op.roles].sort().join(',')
      const proven = access === undefined || access === 'public' ? access : [...access].sort().join(',')
      if (stated !== proven) mismatches.push(`${key}: the document says ${stated}, the matrix ${proven}`)
    }
    expect(mismatches).toEqual([])
  })

  it('pages: allowed roles see them, other roles are sent to /forbidden, refused sessions and visitors to /login; public pages send nobody away', async () => {
    const failures: string[] = []
    for (const page of pages) {
      const access = PAGE_ACCESS[page.pattern]
      if (!access) continue
      for (const caller of callers) {
        const got = await openPage(page, caller)
        const expected =
          access === 'public'
            ? 'shown'
            : caller.actsAs === null
              ? 'login'
              : access.includes(caller.actsAs)
                ? 'shown'
                : 'forbidden'
        if (got !== expected) failures.push(`${page.pattern} as ${caller.name}: expected ${expected}, got ${got}`)
      }
    }
    expect(failures).toEqual([])
  }, 300_000)
})
