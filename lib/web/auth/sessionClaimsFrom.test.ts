import { describe, expect, it } from 'vitest'
import { sessionClaimsFrom } from './sessionClaimsFrom'

describe('sessionClaimsFrom', () => {
  const token = {
    id: 'u1',
    email: 'a@mintdesk.test',
    role: 'approver',
    sv: 3,
    authTime: 1_700_000_000,
    sub: 'u1',
    exp: 1,
  }

  it('reads id, email, role, session version and sign-in time', () => {
    expect(sessionClaimsFrom(token)).toEqual({
      id: 'u1',
      email: 'a@mintdesk.test',
      role: 'approver',
      sessionVersion: 3,
      authTime: 1_700_000_000,
    })
  })

  it('refuses a token without our shape: older tokens without a version or sign-in time, an unknown role, no token', () => {
    const { sv: _sv, ...noVersion } = token
    const { authTime: _t, ...noTime } = token
    for (const bad of [
      noVersion,
      noTime,
      { ...token, role: 'root' },
      { ...token, sv: '3' },
      { ...token, id: '' },
      null,
      undefined,
      'x',
    ]) {
      expect(sessionClaimsFrom(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})
