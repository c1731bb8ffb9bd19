// Run by tests/attack/sessionCookie.int.test.ts as its own process (node --import tsx):
// next-auth imports `next/server` without an extension, which vitest's module runner
// cannot resolve from node_modules, while Node with tsx can. With the production
// environment the test gives it, it signs EMAIL/PASSWORD in through the real next-auth
// handlers and prints every Set-Cookie header, the configured session cookie and the
// claims the server's session check reads from it, as JSON. With PROBE_SIGN_OUT=1 it then
// signs that session out through the real POST /api/auth/signout (CSRF token and all) and
// prints that answer too.
import { NextRequest } from 'next/server'
import { handlers } from '@/lib/web/auth/nextAuth'
import { authConfig } from '@/lib/web/auth/nextAuthConfig'
import { readSessionClaims } from '@/lib/web/auth/readSessionClaims'
import { sessionCookie } from '@/lib/web/auth/sessionCookie'
import { getWebDb } from '@/lib/web/webProcess'

const appUrl = process.env.APP_URL ?? 'https://mintdesk.example'
const email = process.env.PROBE_EMAIL ?? ''
const password = process.env.PROBE_PASSWORD ?? ''

const config = authConfig()
const csrfRes = await handlers.GET(new NextRequest(`${appUrl}/api/auth/csrf`))
const csrfCookies = csrfRes.headers.getSetCookie()
const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
const res = await handlers.POST(
  new NextRequest(`${appUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: appUrl,
      cookie: csrfCookies.map((c) => c.split(';')[0]).join('; '),
      'x-forwarded-for': '192.0.2.10',
    },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${appUrl}/mints` }).toString(),
  }),
)
// what the server's per-request check reads back from the cookie the sign-in set (lib/web/auth/getSessionUser.ts)
const cookieHeader = res.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ')
const claims = await readSessionClaims({ cookieHeader, ...sessionCookie() })

/** POST /api/auth/signout as a browser holding the session cookie sends it: its status and Set-Cookie headers. */
async function signOut(): Promise<{ status: number; setCookies: string[] }> {
  const csrf = await handlers.GET(new NextRequest(`${appUrl}/api/auth/csrf`, { headers: { cookie: cookieHeader } }))
  const { csrfToken: token } = (await csrf.json()) as { csrfToken: string }
  const jar = [cookieHeader, ...csrf.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ')
  const out = await handlers.POST(
    new NextRequest(`${appUrl}/api/auth/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: appUrl, cookie: jar },
      body: new URLSearchParams({ csrfToken: token, callbackUrl: `${appUrl}/login` }).toString(),
    }),
  )
  return { status: out.status, setCookies: out.headers.getSetCookie() }
}
const signedOut = process.env.PROBE_SIGN_OUT === '1' && claims ? await signOut() : null

console.log(
  JSON.stringify({
    claims,
    useSecureCookies: config.useSecureCookies,
    sessionToken: config.cookies?.sessionToken,
    status: res.status,
    location: res.headers.get('location'),
    setCookies: [...csrfCookies, ...res.headers.getSetCookie()],
    signedOut,
  }),
)
await getWebDb().close()
