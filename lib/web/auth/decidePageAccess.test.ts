import { describe, expect, it } from 'vitest'
import { decidePageAccess } from './decidePageAccess'

describe('decidePageAccess (the proxy: a session cookie or not; roles are decided on the server)', () => {
  it('sends visitors without a session to /login with the page as callbackUrl', () => {
    expect(decidePageAccess({ pathname: '/mints', search: '?status=pending', signedIn: false })).toEqual({
      action: 'redirect',
      to: '/login?callbackUrl=%2Fmints%3Fstatus%3Dpending',
    })
    expect(decidePageAccess({ pathname: '/', search: '', signedIn: false })).toEqual({
      action: 'redirect',
      to: '/login',
    })
    expect(decidePageAccess({ pathname: '/admin/jobs/17', search: '', signedIn: false })).toEqual({
      action: 'redirect',
      to: '/login?callbackUrl=%2Fadmin%2Fjobs%2F17',
    })
  })
  it('lets anyone see /login and /forbidden', () => {
    expect(decidePageAccess({ pathname: '/login', search: '', signedIn: false })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/forbidden', search: '', signedIn: false })).toEqual({ action: 'next' })
  })
  it('lets anyone see the public reserves page, signed in or not, and nothing that only starts like it', () => {
    expect(decidePageAccess({ pathname: '/reserves', search: '?address=0x1', signedIn: false })).toEqual({
      action: 'next',
    })
    expect(decidePageAccess({ pathname: '/reserves', search: '', signedIn: true })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/reservesx', search: '', signedIn: false })).toEqual({
      action: 'redirect',
      to: '/login?callbackUrl=%2Freservesx',
    })
  })
  it('never redirects API routes (the route wrapper answers 401/403 JSON)', () => {
    expect(decidePageAccess({ pathname: '/api/gold/mint', search: '', signedIn: false })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/api/admin/jobs', search: '', signedIn: true })).toEqual({ action: 'next' })
  })
  it('lets every signed-in request through, /admin and /login included: the role and the revocation are checked on the server (a stale token role must not decide)', () => {
    for (const pathname of ['/admin', '/admin/jobs/17', '/approvals', '/mints/new', '/login', '/']) {
      expect(decidePageAccess({ pathname, search: '', signedIn: true }), pathname).toEqual({ action: 'next' })
    }
  })
})
