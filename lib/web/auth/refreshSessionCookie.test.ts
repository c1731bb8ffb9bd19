import { decode, encode } from 'next-auth/jwt'
import { describe, expect, it } from 'vitest'
import { refreshSessionCookie, SESSION_IDLE_SECONDS } from './refreshSessionCookie'
import { sessionClaimsFrom } from './sessionClaimsFrom'

const secret = 'x'.repeat(40)
const cookieName = 'authjs.session-token'
const MAX_AGE = 12 * 60 * 60
const SID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b'

async function tokenAt(authTime: number) {
  const value = await encode({
    token: { id: 'u1', sub: 'u1', email: 'a@mintdesk.test', role: 'staff', sv: 2, authTime, sid: SID, name: 'A' },
    secret,
    salt: cookieName,
  })
  const token = await decode({ token: value, secret, salt: cookieName })
  const claims = sessionClaimsFrom(token)
  if (!token || !claims) throw new Error('no token')
  return { token, claims, iat: token.iat as number }
}

describe('refreshSessionCookie: the idle timeout slides at most once an hour, never past the absolute lifetime', () => {
  it('leaves a token issued less than an hour ago alone (no encryption, no Set-Cookie)', async () => {
    const { token, claims, iat } = await tokenAt(Math.floor(Date.now() / 1000))
    expect(
      await refreshSessionCookie({
        token,
        claims,
        cookieName,
        secret,
        now: new Date((iat + 59 * 60) * 1000),
        maxAgeSeconds: MAX_AGE,
      }),
    ).toBeNull()
  })

  it('re-issues an older one with the same claims for another idle period', async () => {
    const { token, claims, iat } = await tokenAt(Math.floor(Date.now() / 1000))
    const now = new Date((iat + 2 * 3600) * 1000)
    const refreshed = await refreshSessionCookie({ token, claims, cookieName, secret, now, maxAgeSeconds: MAX_AGE })
    expect(refreshed?.maxAge).toBe(SESSION_IDLE_SECONDS)
    const again = await decode({ token: refreshed?.value, secret, salt: cookieName })
    // the same claims, the session's id included: a signed-out session stays signed out when re-issued
    expect(sessionClaimsFrom(again)).toEqual(claims)
    expect(sessionClaimsFrom(again)?.sessionId).toBe(SID)
    expect(again?.name).toBe('A')
  })

  it('caps the new lifetime at sign-in + SESSION_MAX_AGE_HOURS, and refreshes nothing past it', async () => {
    const signIn = Math.floor(Date.now() / 1000) - 10 * 3600
    const { token, claims, iat } = await tokenAt(signIn)
    const refreshed = await refreshSessionCookie({
      token,
      claims,
      cookieName,
      secret,
      now: new Date((iat + 3600) * 1000),
      maxAgeSeconds: MAX_AGE,
    })
    expect(refreshed?.maxAge).toBe(signIn + MAX_AGE - (iat + 3600))
    expect(
      await refreshSessionCookie({
        token,
        claims,
        cookieName,
        secret,
        now: new Date((signIn + MAX_AGE) * 1000),
        maxAgeSeconds: MAX_AGE,
      }),
    ).toBeNull()
  })
})
