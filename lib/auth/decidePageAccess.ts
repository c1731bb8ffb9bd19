import { homePathFor } from './homePathFor'
import type { SessionUser } from './SessionUser'

export type DecidePageAccessParameters = {
  pathname: string
  /** the query string including its `?`, or '' */
  search: string
  user: SessionUser | null
}

export type DecidePageAccessReturnType = { action: 'next' } | { action: 'redirect'; to: string }

/** Pages anyone may see, signed in or not: sign-in, the refusal, and the public proof of reserve (API.md "Reserves"). */
const publicPages = ['/login', '/forbidden', '/reserves']

/**
 * What `proxy.ts` does with a page request: let it through, or redirect it. API routes
 * are never redirected (the route wrapper answers 401/403 JSON), and are not matched here.
 * - not signed in -> `/login?callbackUrl=<path>`
 * - signed in on `/login` -> their home page
 * - `/admin/**` without the admin role -> `/forbidden`
 * - `/approvals/**` without the approver or admin role -> `/forbidden` (API.md: they approve)
 * - `/mints/new` as an approver -> `/forbidden` (approvers approve; staff and admins request)
 */
/** `path` itself or a page below it (not a name that only starts the same). */
function under(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`)
}

export function decidePageAccess({ pathname, search, user }: DecidePageAccessParameters): DecidePageAccessReturnType {
  if (pathname === '/api' || pathname.startsWith('/api/')) return { action: 'next' }
  const isPublic = publicPages.some((p) => pathname === p || pathname.startsWith(`${p}/`))
  if (!user) {
    if (isPublic) return { action: 'next' }
    const callbackUrl = `${pathname}${search}`
    return {
      action: 'redirect',
      to: pathname === '/' ? '/login' : `/login?${new URLSearchParams({ callbackUrl }).toString()}`,
    }
  }
  if (pathname === '/login') return { action: 'redirect', to: homePathFor(user.role) }
  if ((pathname === '/admin' || pathname.startsWith('/admin/')) && user.role !== 'admin') {
    return { action: 'redirect', to: '/forbidden' }
  }
  if (under(pathname, '/approvals') && user.role !== 'approver' && user.role !== 'admin') {
    return { action: 'redirect', to: '/forbidden' }
  }
  if (under(pathname, '/mints/new') && user.role === 'approver') return { action: 'redirect', to: '/forbidden' }
  return { action: 'next' }
}
