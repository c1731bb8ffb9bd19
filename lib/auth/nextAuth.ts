import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth'
import type { Provider } from 'next-auth/providers'
import Credentials from 'next-auth/providers/credentials'
import { authConfig } from '@/lib/auth/nextAuthConfig'
import { authMethods } from '@/lib/auth/authMethods'
import { authorizeCredentials } from '@/lib/auth/authorizeCredentials'
import { getClientIp } from '@/lib/auth/getClientIp'
import { getUserByEmail } from '@/lib/auth/getUserByEmail'
import { getConfig } from '@/lib/config/getConfig'
import { getLoginThrottle, getWebDb } from '@/lib/web/webProcess'

/** Wrong email or password (the `code` the login form sees). */
class InvalidCredentialsSignin extends CredentialsSignin {
  override code = 'credentials'
}

/** Too many failed attempts for this email or from this IP (lib/auth/loginThrottle.ts). */
class ThrottledSignin extends CredentialsSignin {
  override code = 'throttled'
}

/**
 * The full next-auth setup (Node only: it reads the `users` table). Email + password
 * in dev (and in production while no OIDC is configured), OIDC when configured; JWT
 * sessions carrying `{ id, email, role }`. See docs/decisions/004-next-auth-v5.md.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const base = authConfig()
  const config = getConfig('web')
  const methods = authMethods(config)
  const providers: Provider[] = []

  if (methods.credentials) {
    providers.push(
      Credentials({
        id: 'credentials',
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, request) {
          const ip = getClientIp(request)
          const result = await authorizeCredentials(getWebDb().db, {
            email: credentials.email,
            password: credentials.password,
            ip,
            throttle: getLoginThrottle(),
          })
          if (result.ok) return result.user
          const email = typeof credentials.email === 'string' ? credentials.email.slice(0, 254) : undefined
          console.warn(JSON.stringify({ level: 'warn', msg: 'sign-in refused', reason: result.reason, email, ip }))
          throw result.reason === 'throttled' ? new ThrottledSignin() : new InvalidCredentialsSignin()
        },
      }),
    )
  }

  if (config.oidc) {
    providers.push({
      id: 'oidc',
      name: 'Single sign-on',
      type: 'oidc',
      issuer: config.oidc.issuer,
      clientId: config.oidc.clientId,
      clientSecret: config.oidc.clientSecret,
      checks: ['pkce', 'state', 'nonce'],
    })
  }

  const callbacks: NextAuthConfig['callbacks'] = {
    ...base.callbacks,
    async signIn({ account, profile }) {
      if (account?.provider !== 'oidc') return true
      // OIDC users must already exist in `users` (matched by a verified email); nobody is created here.
      const email = profile?.email
      if (typeof email !== 'string' || email === '' || profile?.email_verified === false) return false
      return (await getUserByEmail(getWebDb().db, { email })) !== null
    },
    async jwt(params) {
      const { token, account, profile } = params
      if (account?.provider === 'oidc') {
        const email = profile?.email ?? params.user?.email
        const user = typeof email === 'string' ? await getUserByEmail(getWebDb().db, { email }) : null
        if (!user) return null
        token.id = user.id
        token.sub = user.id
        token.email = user.email
        token.name = user.name
        token.role = user.role
        return token
      }
      return base.callbacks?.jwt ? base.callbacks.jwt(params) : token
    },
  }

  return { ...base, providers, callbacks }
})
