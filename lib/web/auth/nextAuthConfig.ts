import type { NextAuthConfig } from 'next-auth'
import { CredentialsSignin } from 'next-auth'
import type { UserRole } from '@/db/schema/users'
import { getConfig } from '@/lib/web/config/getConfig'
import { SESSION_IDLE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './refreshSessionCookie'
import { sessionCookie } from './sessionCookie'

/**
 * The edge-safe half of the next-auth setup: secret, cookies, JWT session and the
 * callbacks that write `{ id, email, role, sv, authTime, sid }` into the JWT at sign-in and
 * copy `{ id, email, role }` into next-auth's session object. No
 * database, no providers: `proxy.ts` reads the session cookie with only this.
 * `lib/web/auth/nextAuth.ts` adds the providers (credentials checked against `users`, OIDC) on top.
 * It is a function, not an object, so the config is read at request time, never at
 * build time (when no DATABASE_URL or AUTH_SECRET exists).
 */

declare module '@auth/core/types' {
  interface User {
    role?: UserRole
    /** users.session_version at sign-in (lib/web/auth/verifySession.ts) */
    sessionVersion?: number
  }
  interface Session {
    user: { id: string; email: string; role: UserRole; name?: string | null; image?: string | null }
  }
}

declare module '@auth/core/jwt' {
  interface JWT {
    id?: string
    role?: UserRole
    /** users.session_version at sign-in: another version in the row = revoked */
    sv?: number
    /** sign-in time, unix seconds: the absolute lifetime counts from it, however often the token is re-issued */
    authTime?: number
    /**
     * this session's id, a random uuid per sign-in: sign-out records it in revoked_sessions
     * (lib/web/auth/revokeSession.ts)
     */
    sid?: string
  }
}

export function authConfig(): NextAuthConfig {
  const config = getConfig('web')
  const secure = config.production
  return {
    secret: config.authSecret,
    trustHost: true,
    useSecureCookies: secure,
    // An idle timeout of SESSION_IDLE_SECONDS (8 h), and an absolute lifetime
    // (SESSION_MAX_AGE_HOURS) the server checks from `authTime` on every request. The
    // cookie is not rewritten per request: the app reads it with readSessionClaims
    // (decrypt only) instead of next-auth's auth(), which re-encrypts on every call
    // (`updateAge` does not gate that for JWT sessions in @auth/core 0.41), and the proxy
    // re-issues it at most once per SESSION_UPDATE_AGE_SECONDS (refreshSessionCookie).
    session: {
      strategy: 'jwt',
      maxAge: Math.min(SESSION_IDLE_SECONDS, config.sessionMaxAgeSeconds),
      updateAge: SESSION_UPDATE_AGE_SECONDS,
    },
    cookies: {
      sessionToken: {
        name: sessionCookie().cookieName,
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
          if (user.sessionVersion !== undefined) token.sv = user.sessionVersion
          token.authTime = Math.floor(Date.now() / 1000)
          token.sid = crypto.randomUUID()
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
        // Failed sign-ins are expected and logged (without the password) by `lib/web/auth/nextAuth.ts`.
        if (error instanceof CredentialsSignin) return
        console.error(
          JSON.stringify({
            level: 'error',
            msg: 'auth error',
            err: { name: error.name, message: error.message, stack: error.stack },
          }),
        )
      },
      warn(code) {
        console.warn(JSON.stringify({ level: 'warn', msg: 'auth warning', code }))
      },
      debug() {},
    },
  }
}
