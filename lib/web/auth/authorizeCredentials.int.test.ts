import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { users } from '@/db/schema/users'
import { hashPassword } from '@/lib/auth/hashPassword'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { authorizeCredentials } from './authorizeCredentials'
import { seedDevUsers } from './seedDevUsers'

// The credentials check with its login throttle, as the web's own database role. Two
// clients stand for two web processes: the throttle's count lives in Postgres, so both
// see the same failures.
describe('authorizeCredentials', () => {
  let t: TestDatabase
  let web: DbClient
  let otherWeb: DbClient
  beforeAll(async () => {
    t = await createTestDatabase()
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    otherWeb = createDb({ url: t.roleUrl('web'), max: 2 })
    await seedDevUsers(t.db, {
      staffPassword: 'staff-dev-password',
      approverPassword: 'approver-dev-password',
      adminPassword: 'admin-dev-password',
      admin2Password: 'admin2-dev-password',
    })
    await t.db
      .insert(users)
      .values({ email: 'sso-only@mintdesk.local', name: 'SSO', role: 'staff', passwordHash: null })
  })
  afterAll(async () => {
    await web?.close()
    await otherWeb?.close()
    await t?.drop()
  })
  beforeEach(async () => {
    // each test starts with no failures counted anywhere
    await t.sql`delete from login_failures`
  })

  const attempt = (db: DbClient, email: string, password: string, ip: string | null) =>
    authorizeCredentials(db.db, { email, password, ip })

  it('signs in with the right password, returning id, email, name, role and session version (never the hash)', async () => {
    const result = await attempt(web, 'staff@mintdesk.local', 'staff-dev-password', '127.0.0.1')
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.user).toEqual({
      id: expect.any(String),
      email: 'staff@mintdesk.local',
      name: 'Vault Staff',
      role: 'staff',
      sessionVersion: 0,
    })
    expect(JSON.stringify(result)).not.toContain('scrypt')
  })

  it('matches the email case-insensitively', async () => {
    const result = await attempt(web, ' Admin@MintDesk.local ', 'admin-dev-password', null)
    expect(result.ok && result.user.role).toBe('admin')
  })

  it('answers the same "invalid" for a wrong password, an unknown email, an OIDC-only user and bad input', async () => {
    const attempts: { email: unknown; password: unknown }[] = [
      { email: 'staff@mintdesk.local', password: 'admin-dev-password' },
      { email: 'nobody@mintdesk.local', password: 'staff-dev-password' },
      { email: 'sso-only@mintdesk.local', password: 'anything' },
      { email: undefined, password: 'x' },
      { email: 'staff@mintdesk.local', password: ['staff-dev-password'] },
      { email: 'staff@mintdesk.local', password: 'x'.repeat(5000) },
    ]
    for (const [i, a] of attempts.entries()) {
      expect(await authorizeCredentials(web.db, { ...a, ip: `192.0.2.${i}` })).toEqual({ ok: false, reason: 'invalid' })
    }
  })

  it('a disabled user is refused with the right password, with the same "invalid"', async () => {
    const email = 'disabled@mintdesk.local'
    await t.db.insert(users).values({
      email,
      name: 'Off',
      role: 'admin',
      disabled: true,
      passwordHash: await hashPassword({ password: 'right-password' }),
    })
    expect(await attempt(web, email, 'right-password', null)).toEqual({ ok: false, reason: 'invalid' })
  })

  it('5 failures from source A lock A out of that account, even with the right password, while source B still signs in', async () => {
    for (let i = 0; i < 5; i++)
      expect(await attempt(web, 'approver@mintdesk.local', `guess-${i}`, '203.0.113.10')).toEqual({
        ok: false,
        reason: 'invalid',
      })
    expect(await attempt(web, 'approver@mintdesk.local', 'approver-dev-password', '203.0.113.10')).toMatchObject({
      ok: false,
      reason: 'throttled',
      retryAfterMs: expect.any(Number),
    })
    // the account holder, elsewhere, is not locked out by the attacker
    expect((await attempt(web, 'approver@mintdesk.local', 'approver-dev-password', '198.51.100.20')).ok).toBe(true)
    // and source A may still sign in to another account (its own), under the per-source limit
    expect((await attempt(web, 'staff@mintdesk.local', 'staff-dev-password', '203.0.113.10')).ok).toBe(true)
  })

  it('two web processes share the count: 3 failures in one and 2 in the other lock that source out in both', async () => {
    for (let i = 0; i < 3; i++) await attempt(web, 'admin@mintdesk.local', `guess-${i}`, '203.0.113.30')
    for (let i = 3; i < 5; i++) await attempt(otherWeb, 'admin@mintdesk.local', `guess-${i}`, '203.0.113.30')
    for (const db of [web, otherWeb])
      expect(await attempt(db, 'admin@mintdesk.local', 'admin-dev-password', '203.0.113.30')).toMatchObject({
        ok: false,
        reason: 'throttled',
      })
    expect((await attempt(otherWeb, 'admin@mintdesk.local', 'admin-dev-password', '198.51.100.31')).ok).toBe(true)
  })

  it('20 failures from one source over many accounts lock that source out of every account; other sources are untouched', async () => {
    const sprayer = '203.0.113.40'
    for (let i = 0; i < 20; i++)
      expect(await attempt(web, `user${i}@mintdesk.local`, 'Winter2026!', sprayer)).toEqual({
        ok: false,
        reason: 'invalid',
      })
    expect(await attempt(web, 'staff@mintdesk.local', 'staff-dev-password', sprayer)).toMatchObject({
      reason: 'throttled',
    })
    expect((await attempt(web, 'staff@mintdesk.local', 'staff-dev-password', '198.51.100.41')).ok).toBe(true)
  })

  it('a success clears that account’s failures from that source, not the failures from another source', async () => {
    for (let i = 0; i < 4; i++) await attempt(web, 'admin@mintdesk.local', 'nope', '198.51.100.50')
    for (let i = 0; i < 4; i++) await attempt(web, 'admin@mintdesk.local', 'nope', '203.0.113.51')
    expect((await attempt(web, 'admin@mintdesk.local', 'admin-dev-password', '198.51.100.50')).ok).toBe(true)
    // the holder's own source starts afresh: 4 more typos and the right password still works
    for (let i = 0; i < 4; i++) await attempt(web, 'admin@mintdesk.local', 'nope', '198.51.100.50')
    expect((await attempt(web, 'admin@mintdesk.local', 'admin-dev-password', '198.51.100.50')).ok).toBe(true)
    // the other source's 4 failures still count: one more and it is locked out
    await attempt(web, 'admin@mintdesk.local', 'nope', '203.0.113.51')
    expect(await attempt(web, 'admin@mintdesk.local', 'admin-dev-password', '203.0.113.51')).toMatchObject({
      reason: 'throttled',
    })
  })
})
