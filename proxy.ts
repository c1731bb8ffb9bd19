import NextAuth from 'next-auth'
import { type NextRequest, NextResponse } from 'next/server'
import { authConfig } from '@/lib/auth/nextAuthConfig'
import { decidePageAccess } from '@/lib/auth/decidePageAccess'
import { sessionUserFrom } from '@/lib/auth/sessionUserFrom'
import { contentSecurityPolicy, createCspNonce } from '@/lib/web/contentSecurityPolicy'

// Edge-safe: only the JWT is read (lib/auth/nextAuthConfig.ts), no database import here.
const { auth } = NextAuth(() => authConfig())

// With a lazy (function) config, next-auth 5.0.0-beta.32's `auth(callback)` returns a
// PROMISE of the handler at run time, although its type says a function (a default
// export of it is rejected by Next). Promise.resolve() accepts both, should that change.
const handler = Promise.resolve(
  auth((req) => {
    const decision = decidePageAccess({
      pathname: req.nextUrl.pathname,
      search: req.nextUrl.search,
      user: sessionUserFrom(req.auth),
    })
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
    return res
  }),
)

/**
 * Pages need a session (-> /login?callbackUrl=...), /admin/** needs the admin role
 * (-> /forbidden). API routes are not matched: `lib/http/route.ts` answers 401/403 JSON.
 * Every page answer gets a nonce-based Content-Security-Policy of its own
 * (lib/web/contentSecurityPolicy.ts), also set on the request for Next's renderer.
 * This is the first gate, not the only one: server components re-check
 * (`requireUser`, the (admin) layout) and route handlers check on their own.
 */
export async function proxy(req: NextRequest): Promise<Response | void> {
  const run = await handler
  return run(req, { params: Promise.resolve({}) })
}

export const config = {
  // everything but /api/**, Next's own assets and the icons (public, needed on /login)
  matcher: ['/((?!api/|api$|_next/static/|_next/image|favicon\\.ico$|icon\\.svg$).*)'],
}
