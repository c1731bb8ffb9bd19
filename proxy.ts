import { type NextRequest, NextResponse } from 'next/server'
import { decidePageAccess } from '@/lib/web/auth/decidePageAccess'
import { readSessionToken } from '@/lib/web/auth/readSessionClaims'
import { refreshSessionCookie } from '@/lib/web/auth/refreshSessionCookie'
import { sessionClaimsFrom } from '@/lib/web/auth/sessionClaimsFrom'
import { sessionCookie } from '@/lib/web/auth/sessionCookie'
import { getConfig } from '@/lib/web/config/getConfig'
import { contentSecurityPolicy, createCspNonce } from '@/lib/web/contentSecurityPolicy'

/**
 * Pages need a session cookie (-> /login?callbackUrl=...). Edge-safe and cheap: the
 * cookie is decrypted (lib/web/auth/readSessionClaims.ts) and re-issued at most once an hour
 * for the idle timeout (lib/web/auth/refreshSessionCookie.ts), and no database is read, so roles are not looked at here
 * (a token's role may be stale): whether the session still stands (role, disabled, version) is decided on
 * the server on every request (`requireUser`/`requireRole` in layouts and pages, the
 * route wrapper for the API). API routes are not matched: `lib/web/http/route.ts` answers
 * 401/403 JSON.
 * Every page answer gets a nonce-based Content-Security-Policy of its own
 * (lib/web/contentSecurityPolicy.ts), also set on the request for Next's renderer.
 */
export async function proxy(req: NextRequest): Promise<Response | undefined> {
  const cookie = sessionCookie()
  const maxAgeSeconds = getConfig('web').sessionMaxAgeSeconds
  const now = new Date()
  const token = await readSessionToken({ cookieHeader: req.headers.get('cookie'), ...cookie })
  const claims = sessionClaimsFrom(token)
  const signedIn = claims !== null && claims.authTime + maxAgeSeconds > Math.floor(now.getTime() / 1000)
  // the idle timeout slides, re-issued at most once an hour (not per request), never past the absolute lifetime
  const refreshed =
    signedIn && token && claims ? await refreshSessionCookie({ token, claims, ...cookie, now, maxAgeSeconds }) : null
  const decision = decidePageAccess({ pathname: req.nextUrl.pathname, search: req.nextUrl.search, signedIn })
  // a fresh nonce per response; Next finds it in the request's CSP header and puts it on its scripts
  const nonce = createCspNonce()
  const csp = contentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === 'development' })
  let res: NextResponse
  if (decision.action === 'redirect') {
    res = NextResponse.redirect(new URL(decision.to, req.nextUrl))
  } else {
    const headers = new Headers(req.headers)
    headers.set('x-nonce', nonce)
    headers.set('content-security-policy', csp)
    res = NextResponse.next({ request: { headers } })
  }
  res.headers.set('content-security-policy', csp)
  if (refreshed) {
    const secure = cookie.cookieName.startsWith('__Secure-')
    res.cookies.set(cookie.cookieName, refreshed.value, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure,
      maxAge: refreshed.maxAge,
    })
  }
  return res
}

export const config = {
  // everything but /api/**, Next's own assets and the icons (public, needed on /login)
  matcher: ['/((?!api/|api$|_next/static/|_next/image|favicon\\.ico$|icon\\.svg$).*)'],
}
