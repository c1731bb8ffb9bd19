import { describe, expect, it } from 'vitest'
import { checkOidcProfile } from './checkOidcProfile'

describe('checkOidcProfile: what an OIDC profile must carry (issue 13)', () => {
  const good = { sub: 'auth0|123', email: 'Staff@MintDesk.test', email_verified: true }

  it('takes a verified email and a subject, the email normalized', () => {
    expect(checkOidcProfile({ profile: good })).toEqual({
      ok: true,
      email: 'staff@mintdesk.test',
      subject: 'auth0|123',
    })
  })

  it('refuses an email the provider does not vouch for: false, absent, or anything but the boolean true', () => {
    for (const email_verified of [false, undefined, null, 'true', 1]) {
      expect(checkOidcProfile({ profile: { ...good, email_verified } }), String(email_verified)).toEqual({
        ok: false,
        reason: 'email_not_verified',
      })
    }
    const { email_verified: _omitted, ...noFlag } = good
    expect(checkOidcProfile({ profile: noFlag })).toEqual({ ok: false, reason: 'email_not_verified' })
  })

  it('refuses a profile without an email or without a subject', () => {
    expect(checkOidcProfile({ profile: { ...good, email: '' } })).toEqual({ ok: false, reason: 'no_email' })
    expect(checkOidcProfile({ profile: { ...good, email: ['a@b.c'] } })).toEqual({ ok: false, reason: 'no_email' })
    expect(checkOidcProfile({ profile: { ...good, sub: '' } })).toEqual({ ok: false, reason: 'no_subject' })
    expect(checkOidcProfile({ profile: { ...good, sub: 42 } })).toEqual({ ok: false, reason: 'no_subject' })
    expect(checkOidcProfile({ profile: null })).toEqual({ ok: false, reason: 'no_email' })
  })
})
