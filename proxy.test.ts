import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server'
import { NextRequest } from 'next/server'
import { encode } from 'next-auth/jwt'
import { describe, expect, it } from 'vitest'
import { sessionCookie } from '@/lib/web/auth/sessionCookie'
import { config, proxy } from './proxy'

// The matcher, the session cookie and the per-request CSP are under test here
// (decidePageAccess.test.ts covers the decisions). The proxy only decrypts the cookie
// (next-auth/jwt, which loads under plain Node), so real cookies are encrypted here as
// next-auth does at sign-in. The proxy reads the web's config (never its database).
process.env.DATABASE_URL ??= 'postgres://mintdesk_web@localhost:5432/unused'

const matches = (url: string) => unstable_doesMiddlewareMatch({ config, url })

describe('proxy matcher', () => {
  it('runs on pages', () => {
    for (const url of [
      '/',
      '/login',
      '/mints',
      '/mints/new',
      '/mints/0b9f?x=1',
      '/admin',
      '/admin/jobs/17',
      '/forbidden',
      '/apiary',
    ]) {
      expect(matches(url), url).toBe(true)
    }
  })
  it('never runs on API routes (they answer 401/403 JSON themselves), Next assets or icons', () => {
    for (const url of [
      '/api',
      '/api/health',
      '/api/gold/mint',
      '/api/auth/csrf',
      '/_next/static/chunks/a.js',
      '/_next/image?url=x',
      '/favicon.ico',
      '/icon.svg',
    ]) {
      expect(matches(url), url).toBe(false)
    }
  })
})

describe('proxy: a nonce-based Content-Security-Policy per page answer (issue 13)', () => {
  const run = async (path: string) => {
    const res = await proxy(new NextRequest(`http://mintdesk.test${path}`))
    if (!res) throw new Error('the proxy answered nothing')
    return res
  }
  const nonceOf = (csp: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? '')?.[1]

  it('sets the policy on the response and, for Next to apply the nonce, on the request', async () => {
    const res = await run('/login')
    const csp = res.headers.get('content-security-policy')
    const scripts = csp?.split('; ').find((d) => d.startsWith('script-src '))
    expect(scripts).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/)
    expect(scripts).not.toContain('unsafe-inline')
    // NextResponse.next({ request: { headers } }) passes request headers through these
    expect(res.headers.get('x-middleware-override-headers')?.split(',')).toEqual(
      expect.arrayContaining(['content-security-policy', 'x-nonce']),
    )
    expect(res.headers.get('x-middleware-request-content-security-policy')).toBe(csp)
    expect(res.headers.get('x-middleware-request-x-nonce')).toBe(nonceOf(csp))
  })

  it('puts it on redirects too, and never reuses a nonce', async () => {
    const redirect = await run('/mints')
    expect(redirect.status).toBe(307)
    expect(redirect.headers.get('location')).toMatch(/\/login\?callbackUrl=/)
    const nonces = new Set<string | undefined>([nonceOf(redirect.headers.get('content-security-policy'))])
    for (let i = 0; i < 20; i++) nonces.add(nonceOf((await run('/login')).headers.get('content-security-policy')))
    expect(nonces.size).toBe(21)
    expect(nonces.has(undefined)).toBe(false)
  })

  it('lets a visitor without a session through to the public reserves page, with its policy', async () => {
    const res = await run('/reserves?address=0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(res.headers.get('location')).toBeNull()
    expect(res.headers.get('x-middleware-next')).toBe('1')
    expect(nonceOf(res.headers.get('content-security-policy'))).toBeDefined()
    expect(matches('/api/reserves')).toBe(false)
    expect((await run('/mints')).status).toBe(307)
  })
})

describe('proxy: the session cookie is decrypted, not rewritten, and no role is decided here (issue 13)', () => {
  const cookieFor = async (claims: Record<string, unknown>) => {
    const { cookieName, secret } = sessionCookie()
    return `${cookieName}=${await encode({ token: claims, secret, salt: cookieName })}`
  }
  const run = (path: string, cookie: string) =>
    proxy(new NextRequest(`http://mintdesk.test${path}`, { headers: { cookie } }))
  const now = () => Math.floor(Date.now() / 1000)
  const claims = {
    id: '00000000-0000-4000-8000-000000000001',
    email: 's@mintdesk.test',
    role: 'staff',
    sv: 0,
    sid: '00000000-0000-4000-8000-0000000000a1',
  }

  it('a session cookie lets the page through, /admin included (the server checks the role), and sets no cookie', async () => {
    const cookie = await cookieFor({ ...claims, authTime: now() })
    for (const path of ['/mints', '/admin', '/login']) {
      const res = await run(path, cookie)
      expect(res?.headers.get('location'), path).toBeNull()
      expect(res?.headers.get('set-cookie'), path).toBeNull()
    }
  })

  it('a session past its absolute lifetime, a forged cookie or a token without version, sign-in time or session id counts as no session', async () => {
    const old = now() - 13 * 60 * 60
    const forged = `${sessionCookie().cookieName}=not-a-jwe`
    for (const cookie of [
      await cookieFor({ ...claims, authTime: old }),
      forged,
      await cookieFor({ id: claims.id, email: claims.email, role: 'admin' }),
      // a token of older code, without a session id (sign-out could not end it on the server)
      await cookieFor({ ...claims, sid: undefined, authTime: now() }),
    ]) {
      const res = await run('/mints', cookie)
      expect(res?.status).toBe(307)
      expect(res?.headers.get('location')).toMatch(/\/login\?callbackUrl=/)
    }
  })
})
