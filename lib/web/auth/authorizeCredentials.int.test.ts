import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { users } from '@/db/schema/users'
import { hashPassword } from '@/lib/auth/hashPassword'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { authorizeCredentials } from './authorizeCredentials'
import { createLoginThrottle, type LoginThrottle } from './loginThrottle'
import { seedDevUsers } from './seedDevUsers'

describe('authorizeCredentials', () => {
  let t: TestDatabase
  let throttle: LoginThrottle
  beforeAll(async () => {
    t = await createTestDatabase()
    await seedDevUsers(t.db, {
      staffPassword: 'staff-dev-password',
      approverPassword: 'approver-dev-password',
      adminPassword: 'admin-dev-password',
    })
    await t.db
      .insert(users)
      .values({ email: 'sso-only@mintdesk.local', name: 'SSO', role: 'staff', passwordHash: null })
  })
  afterAll(async () => {
    await t.drop()
  })
  beforeEach(() => {
    throttle = createLoginThrottle()
  })

  it('signs in with the right password, returning id, email, name, role and session version (never the hash)', async () => {
    const result = await authorizeCredentials(t.db, {
      email: 'staff@mintdesk.local',
      password: 'staff-dev-password',
      ip: '127.0.0.1',
      throttle,
    })
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
    const result = await authorizeCredentials(t.db, {
      email: ' Admin@MintDesk.local ',
      password: 'admin-dev-password',
      ip: null,
      throttle,
    })
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
    for (const a of attempts) {
      expect(await authorizeCredentials(t.db, { ...a, ip: null, throttle: createLoginThrottle() })).toEqual({
        ok: false,
        reason: 'invalid',
      })
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
    expect(await authorizeCredentials(t.db, { email, password: 'right-password', ip: null, throttle })).toEqual({
      ok: false,
      reason: 'invalid',
    })
  })

  it('refuses the 6th try after 5 failures, even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await authorizeCredentials(t.db, {
        email: 'staff@mintdesk.local',
        password: `guess-${i}`,
        ip: '10.1.1.1',
        throttle,
      })
      expect(r).toEqual({ ok: false, reason: 'invalid' })
    }
    const sixth = await authorizeCredentials(t.db, {
      email: 'staff@mintdesk.local',
      password: 'staff-dev-password',
      ip: '10.9.9.9',
      throttle,
    })
    expect(sixth).toMatchObject({ ok: false, reason: 'throttled' })
    // the admin, from another IP, is unaffected
    const other = await authorizeCredentials(t.db, {
      email: 'admin@mintdesk.local',
      password: 'admin-dev-password',
      ip: '10.2.2.2',
      throttle,
    })
    expect(other.ok).toBe(true)
  })

  it('a success clears the email’s earlier failures', async () => {
    for (let i = 0; i < 4; i++)
      await authorizeCredentials(t.db, { email: 'admin@mintdesk.local', password: 'nope', ip: null, throttle })
    expect(
      (
        await authorizeCredentials(t.db, {
          email: 'admin@mintdesk.local',
          password: 'admin-dev-password',
          ip: null,
          throttle,
        })
      ).ok,
    ).toBe(true)
    for (let i = 0; i < 4; i++)
      await authorizeCredentials(t.db, { email: 'admin@mintdesk.local', password: 'nope', ip: null, throttle })
    expect(
      (
        await authorizeCredentials(t.db, {
          email: 'admin@mintdesk.local',
          password: 'admin-dev-password',
          ip: null,
          throttle,
        })
      ).ok,
    ).toBe(true)
  })
})
