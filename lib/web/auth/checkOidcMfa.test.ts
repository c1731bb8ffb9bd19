import { describe, expect, it } from 'vitest'
import { checkOidcMfa } from './checkOidcMfa'

const ok = { ok: true }
const refused = { ok: false, reason: 'mfa_required' }
const ACR = ['urn:mintdesk:acr:mfa', 'phr']

describe('checkOidcMfa', () => {
  it('approvers and admins need an amr naming a second factor: mfa, otp, hwk or swk', () => {
    for (const role of ['approver', 'admin'] as const) {
      for (const amr of [['mfa'], ['pwd', 'otp'], ['hwk'], ['swk', 'pop']])
        expect(checkOidcMfa({ profile: { amr }, role, acrValues: [] }), `${role} ${amr}`).toEqual(ok)
      for (const amr of [['pwd'], ['sms'], ['kba', 'pwd'], [], 'mfa', ['MFA'], [7], null])
        expect(checkOidcMfa({ profile: { amr }, role, acrValues: [] }), `${role} ${JSON.stringify(amr)}`).toEqual(
          refused,
        )
      expect(checkOidcMfa({ profile: {}, role, acrValues: [] })).toEqual(refused)
      expect(checkOidcMfa({ profile: null, role, acrValues: ACR })).toEqual(refused)
    }
  })

  it('or an acr among the configured ones (OIDC_MFA_ACR), compared exactly', () => {
    expect(checkOidcMfa({ profile: { acr: 'phr' }, role: 'admin', acrValues: ACR })).toEqual(ok)
    expect(
      checkOidcMfa({ profile: { acr: 'urn:mintdesk:acr:mfa', amr: ['pwd'] }, role: 'approver', acrValues: ACR }),
    ).toEqual(ok)
    expect(checkOidcMfa({ profile: { acr: 'PHR' }, role: 'admin', acrValues: ACR })).toEqual(refused)
    expect(checkOidcMfa({ profile: { acr: '1' }, role: 'admin', acrValues: ACR })).toEqual(refused)
    // nothing configured: no acr counts
    expect(checkOidcMfa({ profile: { acr: 'phr' }, role: 'admin', acrValues: [] })).toEqual(refused)
  })

  it('staff need neither', () => {
    expect(checkOidcMfa({ profile: {}, role: 'staff', acrValues: [] })).toEqual(ok)
  })
})
