import { describe, expect, it } from 'vitest'
import { sessionClaimsFrom } from './sessionClaimsFrom'

describe('sessionClaimsFrom', () => {
  const token = {
    id: 'u1',
    email: 'a@mintdesk.test',
    role: 'approver',
    sv: 3,
    authTime: 1_700_000_000,
    sid: '6f1c2a4e-8b3d-4f5a-9c7e-1d2b3a4c5e6f',
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
      sessionId: '6f1c2a4e-8b3d-4f5a-9c7e-1d2b3a4c5e6f',
    })
  })

  it('refuses a token without our shape: older tokens without a version, sign-in time or session id, an unknown role, no token', () => {
    const { sv: _sv, ...noVersion } = token
    const { authTime: _t, ...noTime } = token
    const { sid: _sid, ...noSessionId } = token
    for (const bad of [
      noVersion,
      noTime,
      noSessionId,
      { ...token, sid: 'not-a-uuid' },
      { ...token, sid: 7 },
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
