import { describe, expect, it } from 'vitest'
import { decidePageAccess } from './decidePageAccess'
import type { SessionUser } from './SessionUser'

const staff: SessionUser = { id: 's', email: 'staff@mintdesk.local', role: 'staff' }
const admin: SessionUser = { id: 'a', email: 'admin@mintdesk.local', role: 'admin' }
const approver: SessionUser = { id: 'p', email: 'approver@mintdesk.local', role: 'approver' }

describe('decidePageAccess', () => {
  it('sends visitors without a session to /login with the page as callbackUrl', () => {
    expect(decidePageAccess({ pathname: '/mints', search: '?status=pending', user: null })).toEqual({
      action: 'redirect',
      to: '/login?callbackUrl=%2Fmints%3Fstatus%3Dpending',
    })
    expect(decidePageAccess({ pathname: '/', search: '', user: null })).toEqual({ action: 'redirect', to: '/login' })
  })
  it('lets anyone see /login and /forbidden', () => {
    expect(decidePageAccess({ pathname: '/login', search: '', user: null })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/forbidden', search: '', user: null })).toEqual({ action: 'next' })
  })
  it('lets anyone see the public reserves page, signed in or not, and nothing that only starts like it', () => {
    expect(decidePageAccess({ pathname: '/reserves', search: '?address=0x1', user: null })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/reserves', search: '', user: staff })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/reservesx', search: '', user: null })).toEqual({ action: 'redirect', to: '/login?callbackUrl=%2Freservesx' })
  })
  it('never redirects API routes (the route wrapper answers 401/403 JSON)', () => {
    expect(decidePageAccess({ pathname: '/api/gold/mint', search: '', user: null })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/api/admin/jobs', search: '', user: staff })).toEqual({ action: 'next' })
  })
  it('sends staff away from /admin/** to /forbidden, lets admins in', () => {
    expect(decidePageAccess({ pathname: '/admin', search: '', user: staff })).toEqual({ action: 'redirect', to: '/forbidden' })
    expect(decidePageAccess({ pathname: '/admin/jobs/17', search: '', user: staff })).toEqual({
      action: 'redirect',
      to: '/forbidden',
    })
    expect(decidePageAccess({ pathname: '/admin/jobs/17', search: '', user: admin })).toEqual({ action: 'next' })
    // not a prefix match on the name
    expect(decidePageAccess({ pathname: '/administrivia', search: '', user: staff })).toEqual({ action: 'next' })
  })
  it('sends signed-in users from /login to their home page', () => {
    expect(decidePageAccess({ pathname: '/login', search: '', user: staff })).toEqual({ action: 'redirect', to: '/mints' })
    expect(decidePageAccess({ pathname: '/login', search: '', user: admin })).toEqual({ action: 'redirect', to: '/admin' })
    expect(decidePageAccess({ pathname: '/login', search: '', user: approver })).toEqual({ action: 'redirect', to: '/approvals' })
  })
  it('/approvals: approvers and admins; staff to /forbidden', () => {
    expect(decidePageAccess({ pathname: '/approvals', search: '', user: approver })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/approvals', search: '', user: admin })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/approvals', search: '', user: staff })).toEqual({ action: 'redirect', to: '/forbidden' })
    expect(decidePageAccess({ pathname: '/approvals/x', search: '', user: staff })).toEqual({ action: 'redirect', to: '/forbidden' })
    expect(decidePageAccess({ pathname: '/approvalsx', search: '', user: staff })).toEqual({ action: 'next' })
  })
  it('approvers read every order but request none, and never reach /admin', () => {
    expect(decidePageAccess({ pathname: '/mints', search: '', user: approver })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/mints/0b9f', search: '', user: approver })).toEqual({ action: 'next' })
    expect(decidePageAccess({ pathname: '/mints/new', search: '', user: approver })).toEqual({ action: 'redirect', to: '/forbidden' })
    expect(decidePageAccess({ pathname: '/admin', search: '', user: approver })).toEqual({ action: 'redirect', to: '/forbidden' })
  })
})
