import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { hashPassword } from '@/lib/auth/hashPassword'
import type { SessionClaims } from '@/lib/web/auth/sessionClaimsFrom'
import { verifySession } from '@/lib/web/auth/verifySession'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'

// Session cookies in PRODUCTION mode (the e2e stack runs in dev mode, over plain
// http): the real next-auth handlers, configured as production configures them
// (NODE_ENV=production, real secrets, an https APP_URL, a MINTER_ADDRESS, no dev passwords), sign a user in
// from the `users` table (tests/attack/productionCookies.ts, its own process). Every
// cookie they set must be HttpOnly, SameSite, Secure and carry the __Secure-/__Host-
// prefix: a cookie without Secure could travel over plain http.

const root = path.resolve(import.meta.dirname, '..', '..')
const APP_URL = 'https://mintdesk.example'
const EMAIL = 'prod-cookie@mintdesk.test'
const password = randomBytes(12).toString('base64url')
let t: TestDatabase

type Probe = {
  claims: SessionClaims | null
  useSecureCookies: boolean
  sessionToken: unknown
  status: number
  location: string | null
  setCookies: string[]
  /** PROBE_SIGN_OUT: the answer of POST /api/auth/signout for that session */
  signedOut: { status: number; setCookies: string[] } | null
}

function probe(pw: string, { signOut = false }: { signOut?: boolean } = {}): Probe {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    DATABASE_URL: t.roleUrl('web'), // production refuses any other user than the web's role
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    APP_URL,
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    // a production web names its GoldMinter; signing in never reaches it
    MINTER_ADDRESS: `0x${randomBytes(20).toString('hex')}`,
    PROBE_EMAIL: EMAIL,
    PROBE_PASSWORD: pw,
    PROBE_SIGN_OUT: signOut ? '1' : '0',
  }
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'tests/attack/productionCookies.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  })
  // the probe's answer is its last JSON line (log lines, such as the sign-out's, come before it)
  const line = res.stdout.split('\n').findLast((l) => l.startsWith('{'))
  if (res.status !== 0 || !line)
    throw new Error(`the production probe failed (exit ${res.status}): ${res.stderr.slice(-2000)}`)
  return JSON.parse(line) as Probe
}

beforeAll(async () => {
  t = await createTestDatabase()
  await t.sql`insert into users (email, name, role, password_hash) values (${EMAIL}, 'Prod', 'staff', ${await hashPassword({ password })})`
})

afterAll(async () => {
  await t?.drop()
})

describe('next-auth in production mode', () => {
  it('a real sign-in sets only __Secure-/__Host- cookies, each HttpOnly, Secure, SameSite, the session one among them', () => {
    const p = probe(password)
    expect(p.useSecureCookies).toBe(true)
    expect(p.sessionToken).toEqual({
      name: '__Secure-authjs.session-token',
      options: { httpOnly: true, sameSite: 'lax', path: '/', secure: true },
    })
    const names = p.setCookies.map((c) => c.split('=')[0])
    expect(names, JSON.stringify(p)).toContain('__Secure-authjs.session-token')
    for (const cookie of p.setCookies) {
      const name = cookie.split('=')[0]
      expect(name, cookie).toMatch(/^__(Secure|Host)-/)
      expect(cookie, name).toMatch(/;\s*HttpOnly/i)
      expect(cookie, name).toMatch(/;\s*Secure/i)
      expect(cookie, name).toMatch(/;\s*SameSite=(Lax|Strict)/i)
      expect(cookie, name).toMatch(/;\s*Path=\//i)
    }
    // it redirects to our own origin, never elsewhere
    expect(new URL(p.location ?? APP_URL).origin).toBe(APP_URL)
  }, 90_000)

  it('a wrong password sets no session cookie', () => {
    const p = probe('not-the-password')
    expect(p.setCookies.some((c) => c.includes('session-token='))).toBe(false)
    expect(p.claims).toBeNull()
  }, 90_000)

  it('the cookie of a real sign-in carries the session version and the sign-in time; an admin change since revokes it (issue 13)', async () => {
    const p = probe(password)
    const now = Math.floor(Date.now() / 1000)
    expect(p.claims).toMatchObject({ email: EMAIL, role: 'staff', sessionVersion: 0, sessionId: expect.any(String) })
    expect(Math.abs((p.claims?.authTime ?? 0) - now)).toBeLessThan(120)
    const web = createDb({ url: t.roleUrl('web'), max: 1 })
    try {
      const check = () => verifySession(web.db, { claims: p.claims, now: new Date(), maxAgeSeconds: 12 * 60 * 60 })
      expect(await check()).toMatchObject({ ok: true, user: { email: EMAIL, role: 'staff' } })
      await t.sql`update users set role = 'admin', session_version = session_version + 1 where email = ${EMAIL}`
      expect(await check()).toEqual({ ok: false, reason: 'revoked' })
    } finally {
      await web.close()
    }
  }, 90_000)

  it('sign-out through the real POST /api/auth/signout ends that session on the server: its cookie, replayed, is refused', async () => {
    const p = probe(password, { signOut: true })
    expect(p.signedOut?.status, JSON.stringify(p.signedOut)).toBe(302)
    // the browser's cookie is cleared, and the server remembers the session as signed out
    expect(p.signedOut?.setCookies.some((c) => /^__Secure-authjs\.session-token=;/.test(c))).toBe(true)
    const web = createDb({ url: t.roleUrl('web'), max: 1 })
    try {
      expect(await verifySession(web.db, { claims: p.claims, now: new Date(), maxAgeSeconds: 12 * 60 * 60 })).toEqual({
        ok: false,
        reason: 'signed_out',
      })
      // another sign-in of the same user is a new session, which stands
      const again = probe(password)
      expect(again.claims?.sessionId).not.toBe(p.claims?.sessionId)
      expect(
        await verifySession(web.db, { claims: again.claims, now: new Date(), maxAgeSeconds: 12 * 60 * 60 }),
      ).toMatchObject({ ok: true })
    } finally {
      await web.close()
    }
  }, 120_000)
})
