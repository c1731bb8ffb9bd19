import { getToken, type JWT } from 'next-auth/jwt'
import { type SessionClaims, sessionClaimsFrom } from './sessionClaimsFrom'
import { getSessionTokenCache } from './sessionTokenCache'

export type ReadSessionClaimsParameters = {
  /** the request's Cookie header (null: none) */
  cookieHeader: string | null
  /** AUTH_SECRET, as the cookie was encrypted with */
  secret: string
  /** the session cookie's name (`authjs.session-token`, `__Secure-` in production) */
  cookieName: string
}

/**
 * Decrypts the session cookie (next-auth's JWE, chunked cookies joined) and returns its
 * claims, or null: no cookie, a cookie that does not decrypt or has expired, or claims
 * without our shape. Only decrypts: unlike next-auth's `auth()`, which re-encrypts the
 * token and rewrites the cookie on every call (@auth/core 0.41 does so for JWT sessions
 * whatever `updateAge` says), so the app's per-request check never calls it. Only the
 * Cookie header is looked at (no `Authorization: Bearer` session). Edge-safe.
 */
export async function readSessionClaims(p: ReadSessionClaimsParameters): Promise<SessionClaims | null> {
  return sessionClaimsFrom(await readSessionToken(p))
}

/**
 * The decrypted token itself (with next-auth's `iat`/`exp`), for the proxy's refresh
 * (lib/web/auth/refreshSessionCookie.ts). A cookie value seen before is not decrypted again
 * (lib/web/auth/sessionTokenCache.ts); a cookie that does not decrypt is never remembered.
 */
export async function readSessionToken({
  cookieHeader,
  secret,
  cookieName,
}: ReadSessionClaimsParameters): Promise<JWT | null> {
  if (!cookieHeader) return null
  const value = sessionCookieValue(cookieHeader, cookieName)
  if (value === null) return null
  const cache = getSessionTokenCache()
  const key = `${cookieName}\u0000${secret}\u0000${value}`
  const cached = cache.get(key, Math.floor(Date.now() / 1000))
  if (cached) return cached
  const token = await getToken({
    req: { headers: new Headers({ cookie: cookieHeader }) },
    secret,
    cookieName,
    salt: cookieName,
    secureCookie: cookieName.startsWith('__Secure-'),
    logger: { error() {}, warn() {}, debug() {} },
  })
  if (token) cache.set(key, token)
  return token
}

/**
 * Every cookie next-auth's getToken would read for the session (the cookie and its chunks
 * `name.0`, `name.1`, ...: every name that starts with the cookie's), as they stand in the
 * header: the same text always decrypts to the same token. Null when there is none.
 */
function sessionCookieValue(cookieHeader: string, cookieName: string): string | null {
  const parts = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(cookieName))
  return parts.length > 0 ? parts.join('; ') : null
}
