import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { beginLoginAttempt } from './beginLoginAttempt'
import { clearLoginFailures } from './clearLoginFailures'
import { LOGIN_THROTTLE } from './loginThrottle'

// The throttle's counting itself, as the web's database role, with the clock given (no password checks here:
// lib/web/auth/authorizeCredentials.int.test.ts signs in for real).
let t: TestDatabase
let web: DbClient
const WINDOW = LOGIN_THROTTLE.windowMs
const t0 = new Date('2026-12-01T09:00:00Z')
const at = (ms: number) => new Date(t0.getTime() + ms)

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 10 })
})
afterAll(async () => {
  await web?.close()
  await t?.drop()
})
beforeEach(async () => {
  await t.sql`delete from login_failures`
})

const begin = (email: string, ip: string | null, now: Date) => beginLoginAttempt(web.db, { email, ip, now })
const rows = async () => (await t.sql<{ n: number }[]>`select count(*)::int as n from login_failures`)[0]?.n

describe('beginLoginAttempt', () => {
  it('the 6th attempt within the window is refused until the oldest failure leaves it (a sliding window)', async () => {
    for (let i = 0; i < 5; i++)
      expect((await begin('a@mintdesk.test', '203.0.113.1', at(i * 60_000))).allowed).toBe(true)
    expect(await begin('a@mintdesk.test', '203.0.113.1', at(5 * 60_000))).toEqual({
      allowed: false,
      retryAfterMs: WINDOW - 5 * 60_000,
    })
    // the email is compared trimmed and lowercased
    expect((await begin(' A@MintDesk.test ', '203.0.113.1', at(5 * 60_000))).allowed).toBe(false)
    // the first failure leaves the window: one more is allowed, then refused again
    expect((await begin('a@mintdesk.test', '203.0.113.1', at(WINDOW + 1))).allowed).toBe(true)
    expect((await begin('a@mintdesk.test', '203.0.113.1', at(WINDOW + 2))).allowed).toBe(false)
  })

  it('refused attempts are not recorded, and rows older than the window are pruned: the table stays bounded', async () => {
    for (let i = 0; i < 5; i++) await begin('b@mintdesk.test', '203.0.113.2', t0)
    for (let i = 0; i < 50; i++) await begin('b@mintdesk.test', '203.0.113.2', at(1000))
    expect(await rows()).toBe(5)
    await begin('c@mintdesk.test', '198.51.100.2', at(WINDOW + 1000))
    expect(await rows()).toBe(1)
  })

  it('concurrent guesses cannot slip past the check: of 12 at once, exactly 5 are let through', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => begin('d@mintdesk.test', '203.0.113.3', t0)))
    expect(results.filter((r) => r.allowed)).toHaveLength(5)
  })

  it('one IPv6 /64 is one source: rotating addresses inside it does not escape the limit', async () => {
    for (let i = 1; i <= 5; i++) expect((await begin('e@mintdesk.test', `2001:db8:7:7::${i}`, t0)).allowed).toBe(true)
    expect((await begin('e@mintdesk.test', '2001:db8:7:7::99', t0)).allowed).toBe(false)
    expect((await begin('e@mintdesk.test', '2001:db8:7:8::1', t0)).allowed).toBe(true)
  })

  it('an attempt taken back (the password was right) no longer counts against the source', async () => {
    for (let i = 0; i < LOGIN_THROTTLE.perSource - 1; i++) await begin(`f${i}@mintdesk.test`, '203.0.113.4', t0)
    const begun = await begin('holder@mintdesk.test', '203.0.113.4', t0)
    if (!begun.allowed) throw new Error('expected the attempt to be let through')
    await clearLoginFailures(web.db, { attempt: begun.attempt })
    expect((await begin('holder@mintdesk.test', '203.0.113.4', t0)).allowed).toBe(true)
    expect((await begin('another@mintdesk.test', '203.0.113.4', t0)).allowed).toBe(false)
  })

  it('the account is never stored as typed: a hash of the normalised email', async () => {
    await begin('Typed-Password-In-The-Email-Box', '203.0.113.5', t0)
    const [row] = await t.sql<{ account_key: string; source: string }[]>`select account_key, source from login_failures`
    expect(row?.account_key).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.source).toBe('203.0.113.5')
  })
})
