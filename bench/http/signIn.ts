export type SignInParameters = { baseUrl: string; email: string; password: string }

/** A signed-in session for scripted requests: its cookies and the Origin header mutations need. */
export type HttpSession = { baseUrl: string; origin: string; cookie: string }

/**
 * Signs in as the browser does: GET /api/auth/csrf, then POST
 * /api/auth/callback/credentials with the CSRF token, the csrf cookie and an Origin
 * header; the session cookie comes back in the redirect. Checked with /api/auth/session.
 */
export async function signIn({ baseUrl, email, password }: SignInParameters): Promise<HttpSession> {
  const origin = new URL(baseUrl).origin
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair?.indexOf('=') ?? -1
      if (pair && eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`)
  keep(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const login = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: baseUrl }).toString(),
  })
  keep(login)
  await login.arrayBuffer()
  const sessionRes = await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie: cookie() } })
  const session = (await sessionRes.json()) as { user?: { email?: string } } | null
  if (session?.user?.email !== email) throw new Error(`sign-in as ${email} failed (status ${login.status})`)
  return { baseUrl, origin, cookie: cookie() }
}
