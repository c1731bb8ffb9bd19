import type { NextAuthConfig } from 'next-auth'
import { CredentialsSignin } from 'next-auth'
import type { UserRole } from '@/db/schema/users'
import { getConfig } from '@/lib/config/getConfig'

/**
 * The edge-safe half of the next-auth setup: secret, cookies, JWT session and the
 * callbacks that copy `{ id, email, role }` between the JWT and the session. No
 * database, no providers: `proxy.ts` uses only this to read the session cookie.
 * `lib/auth/nextAuth.ts` adds the providers (credentials checked against `users`, OIDC) on top.
 * It is a function, not an object, so the config is read at request time, never at
 * build time (when no DATABASE_URL or AUTH_SECRET exists).
 */

declare module '@auth/core/types' {
  interface User {
    role?: UserRole
  }
  interface Session {
    user: { id: string; email: string; role: UserRole; name?: string | null; image?: string | null }
  }
}

declare module '@auth/core/jwt' {
  interface JWT {
    id?: string
    role?: UserRole
  }
}

/** 8 hours: a working day. The JWT is re-issued on use, so this is an idle timeout. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60

export function authConfig(): NextAuthConfig {
  const config = getConfig('web')
  const secure = config.production
  return {
    secret: config.authSecret,
    trustHost: true,
    useSecureCookies: secure,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    cookies: {
      sessionToken: {
        name: `${secure ? '__Secure-' : ''}authjs.session-token`,
        options: { httpOnly: true, sameSite: 'lax', path: '/', secure },
      },
    },
    pages: { signIn: '/login', error: '/login' },
    providers: [],
    callbacks: {
      jwt({ token, user }) {
        // `user` is only present at sign-in: copy the claims the app needs into the token
        if (user) {
          if (user.id) {
            token.id = user.id
            token.sub = user.id
          }
          if (user.email) token.email = user.email
          if (user.role) token.role = user.role
        }
        return token
      },
      session({ session, token }) {
        if (typeof token.id !== 'string' || typeof token.email !== 'string' || !token.role) {
          // a token without our claims (older code, tampering): no user in the session
          return { expires: session.expires }
        }
        return { ...session, user: { id: token.id, email: token.email, role: token.role, name: token.name ?? null } }
      },
    },
    logger: {
      error(error) {
        // Failed sign-ins are expected and logged (without the password) by `lib/auth/nextAuth.ts`.
        if (error instanceof CredentialsSignin) return
        console.error(JSON.stringify({ level: 'error', msg: 'auth error', err: { name: error.name, message: error.message, stack: error.stack } }))
      },
      warn(code) {
        console.warn(JSON.stringify({ level: 'warn', msg: 'auth warning', code }))
      },
      debug() {},
    },
  }
}
