import { encode, type JWT } from 'next-auth/jwt'
import type { SessionClaims } from './sessionClaimsFrom'

/** A session unused for this long ends (the cookie's and the token's lifetime since their last refresh). */
export const SESSION_IDLE_SECONDS = 8 * 60 * 60
/** The cookie is re-issued at most this often (next-auth's `updateAge`), not on every request. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60

export type RefreshSessionCookieParameters = {
  /** the decrypted token (lib/web/auth/readSessionClaims.ts readSessionToken) */
  token: JWT
  claims: SessionClaims
  cookieName: string
  secret: string
  now: Date
  /** SESSION_MAX_AGE_HOURS in seconds: the refresh never carries a session past it */
  maxAgeSeconds: number
}

/**
 * The sliding idle timeout, done by the proxy on page requests: when the token was issued
 * more than SESSION_UPDATE_AGE_SECONDS ago, a new one with the same claims, valid for
 * another SESSION_IDLE_SECONDS but never past the absolute lifetime (sign-in time +
 * SESSION_MAX_AGE_HOURS). Otherwise null: the cookie is left alone, so a busy user costs
 * one decryption per request, not an encryption and a Set-Cookie.
 */
export async function refreshSessionCookie(
  p: RefreshSessionCookieParameters,
): Promise<{ value: string; maxAge: number } | null> {
  const nowSeconds = Math.floor(p.now.getTime() / 1000)
  const issuedAt = typeof p.token.iat === 'number' ? p.token.iat : 0
  if (nowSeconds - issuedAt < SESSION_UPDATE_AGE_SECONDS) return null
  const maxAge = Math.min(SESSION_IDLE_SECONDS, p.claims.authTime + p.maxAgeSeconds - nowSeconds)
  if (maxAge <= 0) return null
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = p.token
  return { value: await encode({ token: claims, secret: p.secret, salt: p.cookieName, maxAge }), maxAge }
}
