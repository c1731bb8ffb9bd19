import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth'
import type { Provider } from 'next-auth/providers'
import Credentials from 'next-auth/providers/credentials'
import { authMethods } from '@/lib/web/auth/authMethods'
import { authorizeCredentials } from '@/lib/web/auth/authorizeCredentials'
import { MFA_REQUIRED_ERROR } from '@/lib/web/auth/checkOidcMfa'
import { getClientIp } from '@/lib/web/auth/getClientIp'
import { authConfig } from '@/lib/web/auth/nextAuthConfig'
import { oidcSignIn } from '@/lib/web/auth/oidcSignIn'
import { revokeSession } from '@/lib/web/auth/revokeSession'
import { sessionClaimsFrom } from '@/lib/web/auth/sessionClaimsFrom'
import { verifySession } from '@/lib/web/auth/verifySession'
import { getConfig } from '@/lib/web/config/getConfig'
import { getWebDb } from '@/lib/web/webProcess'

/** Wrong email or password (the `code` the login form sees). */
class InvalidCredentialsSignin extends CredentialsSignin {
  override code = 'credentials'
}

/**
 * Too many failed attempts for this account from this address, or from this address
 * (lib/web/auth/loginThrottle.ts).
 */
class ThrottledSignin extends CredentialsSignin {
  override code = 'throttled'
}

/**
 * The full next-auth setup (Node only: it reads the `users` table). Email + password
 * in dev (and in production while no OIDC is configured), OIDC when configured; JWT
 * sessions carrying `{ id, email, role, sv, authTime, sid }`, checked against the user's row
 * on every request by lib/web/auth/getSessionUser.ts; sign-out ends the session on the
 * server (`events.signOut`). See docs/decisions/004-next-auth-v5.md.
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
      if (account?.provider !== 'oidc' || !config.oidc) return true
      // a verified email of an existing, enabled user, bound to this issuer and sub, with a
      // second factor for approvers and admins (lib/web/auth/oidcSignIn.ts)
      const { issuer, mfaAcrValues } = config.oidc
      const result = await oidcSignIn(getWebDb().db, { profile, issuer, mfaAcrValues })
      if (result.ok) return true
      console.warn(JSON.stringify({ level: 'warn', msg: 'sign-in refused', reason: result.reason, provider: 'oidc' }))
      // the login page says why (components/auth/loginMessages.ts); any other refusal is AccessDenied
      return result.reason === 'mfa_required' ? `/login?error=${MFA_REQUIRED_ERROR}` : false
    },
    async jwt(params) {
      const { token, account, profile, user } = params
      if (account?.provider === 'oidc') {
        const result = config.oidc
          ? await oidcSignIn(getWebDb().db, {
              profile,
              issuer: config.oidc.issuer,
              mfaAcrValues: config.oidc.mfaAcrValues,
            })
          : null
        if (!result?.ok) return null
        token.id = result.user.id
        token.sub = result.user.id
        token.email = result.user.email
        token.name = result.user.name
        token.role = result.user.role
        token.sv = result.user.sessionVersion
        token.authTime = Math.floor(Date.now() / 1000)
        token.sid = crypto.randomUUID()
        return token
      }
      if (user) return base.callbacks?.jwt ? base.callbacks.jwt(params) : token
      // next-auth's own session endpoint (/api/auth/session): a session the server would
      // refuse (lifetime, disabled, version) is signed out here too, its cookie removed
      const verdict = await verifySession(getWebDb().db, {
        claims: sessionClaimsFrom(token),
        now: new Date(),
        maxAgeSeconds: config.sessionMaxAgeSeconds,
      })
      return verdict.ok ? token : null
    },
  }

  const events: NextAuthConfig['events'] = {
    // Both ways out (POST /api/auth/signout and the layout's sign-out action) come here, after
    // next-auth's CSRF check: the session is recorded as signed out, so its cookie is refused
    // from now on wherever a copy of it is (lib/web/auth/revokeSession.ts). A failure here is
    // logged by next-auth (SignOutError), which clears the cookie anyway.
    async signOut(message) {
      const claims = sessionClaimsFrom('token' in message ? message.token : null)
      if (!claims) return
      await revokeSession(getWebDb().db, { claims })
      console.info(JSON.stringify({ level: 'info', msg: 'signed out', userId: claims.id, sessionId: claims.sessionId }))
    },
  }

  return { ...base, providers, callbacks, events }
})
