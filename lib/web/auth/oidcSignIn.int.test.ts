import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { users } from '@/db/schema/users'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { oidcSignIn } from './oidcSignIn'

// The functions next-auth's OIDC callbacks call (lib/web/auth/nextAuth.ts: signIn and jwt),
// with ID-token profiles as a provider sends them: no real provider here. Run as the
// web's database role, which does the binding in production.
const ISSUER = 'https://sso.mintdesk.test'
let t: TestDatabase
let web: DbClient

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  await t.db.insert(users).values([
    { email: 'ann@mintdesk.test', name: 'Ann', role: 'approver' },
    { email: 'bob@mintdesk.test', name: 'Bob', role: 'staff' },
    { email: 'gone@mintdesk.test', name: 'Gone', role: 'staff', disabled: true },
    { email: 'race@mintdesk.test', name: 'Race', role: 'staff' },
    { email: 'ada@mintdesk.test', name: 'Ada', role: 'admin' },
    { email: 'abe@mintdesk.test', name: 'Abe', role: 'approver' },
  ])
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

/** OIDC_MFA_ACR as a deployment might set it */
const MFA_ACR = ['urn:mintdesk:acr:mfa']
const signIn = (p: { profile: Record<string, unknown> | null; issuer: string }) =>
  oidcSignIn(web.db, { ...p, mfaAcrValues: MFA_ACR })

/** An ID token's claims; the user signed in with a second factor (`amr`) unless told otherwise. */
const profile = (email: string, sub: string, extra: Record<string, unknown> = {}) => ({
  email,
  sub,
  email_verified: true,
  amr: ['pwd', 'mfa'],
  ...extra,
})
const identityOf = async (email: string) =>
  (
    await t.db
      .select({ issuer: users.oidcIssuer, subject: users.oidcSubject })
      .from(users)
      .where(eq(users.email, email))
  )[0]

describe('oidcSignIn', () => {
  it('binds the user to the issuer and sub at the first sign-in, and lets that identity in again', async () => {
    const first = await signIn({ profile: profile('Ann@mintdesk.test', 'sub-ann'), issuer: ISSUER })
    expect(first).toEqual({
      ok: true,
      user: { id: expect.any(String), email: 'ann@mintdesk.test', name: 'Ann', role: 'approver', sessionVersion: 0 },
    })
    expect(await identityOf('ann@mintdesk.test')).toEqual({ issuer: ISSUER, subject: 'sub-ann' })
    expect((await signIn({ profile: profile('ann@mintdesk.test', 'sub-ann'), issuer: ISSUER })).ok).toBe(true)
  })

  it('refuses the same email from another sub or another issuer once bound, and leaves the binding alone', async () => {
    expect(await signIn({ profile: profile('ann@mintdesk.test', 'sub-impostor'), issuer: ISSUER })).toEqual({
      ok: false,
      reason: 'identity_mismatch',
    })
    expect(
      await signIn({ profile: profile('ann@mintdesk.test', 'sub-ann'), issuer: 'https://other-idp.test' }),
    ).toEqual({ ok: false, reason: 'identity_mismatch' })
    expect(await identityOf('ann@mintdesk.test')).toEqual({ issuer: ISSUER, subject: 'sub-ann' })
  })

  it('refuses an unverified email before looking anyone up, and binds nothing', async () => {
    expect(
      await signIn({ profile: profile('bob@mintdesk.test', 'sub-bob', { email_verified: false }), issuer: ISSUER }),
    ).toEqual({ ok: false, reason: 'email_not_verified' })
    expect(await signIn({ profile: { email: 'bob@mintdesk.test', sub: 'sub-bob' }, issuer: ISSUER })).toEqual({
      ok: false,
      reason: 'email_not_verified',
    })
    expect(await identityOf('bob@mintdesk.test')).toEqual({ issuer: null, subject: null })
  })

  it('refuses an unknown email (nobody is created) and a disabled user', async () => {
    expect(await signIn({ profile: profile('nobody@mintdesk.test', 'sub-x'), issuer: ISSUER })).toEqual({
      ok: false,
      reason: 'unknown_user',
    })
    expect(await signIn({ profile: profile('gone@mintdesk.test', 'sub-gone'), issuer: ISSUER })).toEqual({
      ok: false,
      reason: 'disabled',
    })
    expect(await identityOf('gone@mintdesk.test')).toEqual({ issuer: null, subject: null })
  })

  it('an identity bound to one user cannot be bound to a second one', async () => {
    expect(await signIn({ profile: profile('bob@mintdesk.test', 'sub-ann'), issuer: ISSUER })).toEqual({
      ok: false,
      reason: 'identity_mismatch',
    })
    expect(await identityOf('bob@mintdesk.test')).toEqual({ issuer: null, subject: null })
  })

  it('two first sign-ins at once with different subs: one binds, the other is refused', async () => {
    const results = await Promise.all([
      signIn({ profile: profile('race@mintdesk.test', 'sub-one'), issuer: ISSUER }),
      signIn({ profile: profile('race@mintdesk.test', 'sub-two'), issuer: ISSUER }),
    ])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'identity_mismatch' }])
    const bound = await identityOf('race@mintdesk.test')
    expect(['sub-one', 'sub-two']).toContain(bound?.subject)
  })

  it('an approver or admin without a second factor is refused (mfa_required) and nothing is bound', async () => {
    for (const email of ['ada@mintdesk.test', 'abe@mintdesk.test']) {
      for (const extra of [
        { amr: undefined },
        { amr: ['pwd'] },
        { amr: 'mfa' },
        { amr: ['sms'] },
        { amr: undefined, acr: '1' },
      ]) {
        expect(
          await signIn({ profile: profile(email, `sub-${email}`, extra), issuer: ISSUER }),
          JSON.stringify(extra),
        ).toEqual({
          ok: false,
          reason: 'mfa_required',
        })
      }
      expect(await identityOf(email)).toEqual({ issuer: null, subject: null })
    }
  })

  it('with a second factor they sign in: an amr of mfa, otp, hwk or swk, or an acr of OIDC_MFA_ACR', async () => {
    const sub = 'sub-ada'
    for (const extra of [
      { amr: ['otp'] },
      { amr: ['hwk'] },
      { amr: ['pwd', 'swk'] },
      { amr: undefined, acr: 'urn:mintdesk:acr:mfa' },
    ]) {
      const result = await signIn({ profile: profile('ada@mintdesk.test', sub, extra), issuer: ISSUER })
      expect(result, JSON.stringify(extra)).toMatchObject({ ok: true, user: { role: 'admin' } })
    }
    expect(await identityOf('ada@mintdesk.test')).toEqual({ issuer: ISSUER, subject: sub })
    // an acr the deployment did not list does not count
    expect(
      await oidcSignIn(web.db, {
        profile: profile('ada@mintdesk.test', sub, { amr: undefined, acr: 'urn:mintdesk:acr:mfa' }),
        issuer: ISSUER,
        mfaAcrValues: [],
      }),
    ).toEqual({ ok: false, reason: 'mfa_required' })
  })

  it('staff sign in without a second factor', async () => {
    expect(
      (await signIn({ profile: profile('bob@mintdesk.test', 'sub-bob', { amr: ['pwd'] }), issuer: ISSUER })).ok,
    ).toBe(true)
  })

  it('the identity is checked first: another sub for a bound admin is identity_mismatch, with or without a second factor', async () => {
    expect(
      await signIn({ profile: profile('ada@mintdesk.test', 'sub-other', { amr: ['pwd'] }), issuer: ISSUER }),
    ).toEqual({
      ok: false,
      reason: 'identity_mismatch',
    })
  })
})
