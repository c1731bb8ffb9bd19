export type DecidePageAccessParameters = {
  pathname: string
  /** the query string including its `?`, or '' */
  search: string
  /**
   * a session cookie that decrypts, with our claims, within the
   * absolute lifetime (not yet checked against the database)
   */
  signedIn: boolean
}

export type DecidePageAccessReturnType = { action: 'next' } | { action: 'redirect'; to: string }

/**
 * Pages anyone may see, signed in or not: sign-in, the refusal,
 * and the public proof of reserve (docs/api.md "Reserves").
 */
const publicPages = ['/login', '/forbidden', '/reserves']

/**
 * What `proxy.ts` does with a page request: let it through, or send a visitor without a
 * session to `/login?callbackUrl=<path>`. That is all: the proxy runs at the edge without
 * the database, so it cannot know the user's current role, whether they were disabled or
 * their session revoked. Roles are decided on the server on every request, from the
 * user's row (lib/web/auth/getSessionUser.ts: `requireRole` in layouts and pages; the
 * route wrapper for the API). API routes are never redirected (the route wrapper answers
 * 401/403 JSON), and signed-in users on /login are sent home by the login page itself
 * (here it could loop: a revoked session still decrypts).
 */
export function decidePageAccess({
  pathname,
  search,
  signedIn,
}: DecidePageAccessParameters): DecidePageAccessReturnType {
  if (pathname === '/api' || pathname.startsWith('/api/')) return { action: 'next' }
  if (signedIn) return { action: 'next' }
  const isPublic = publicPages.some((p) => pathname === p || pathname.startsWith(`${p}/`))
  if (isPublic) return { action: 'next' }
  const callbackUrl = `${pathname}${search}`
  return {
    action: 'redirect',
    to: pathname === '/' ? '/login' : `/login?${new URLSearchParams({ callbackUrl }).toString()}`,
  }
}
