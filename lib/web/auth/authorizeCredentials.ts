import { randomUUID } from 'node:crypto'
import type { Db } from '@/db/client'
import { hashPassword } from '@/lib/auth/hashPassword'
import { readUserByEmail } from '@/lib/auth/readUserByEmail'
import { beginLoginAttempt } from './beginLoginAttempt'
import { clearLoginFailures } from './clearLoginFailures'
import type { LoginThrottleLimits } from './loginThrottle'
import type { SessionUser } from './SessionUser'
import { verifyPassword } from './verifyPassword'

export type AuthorizeCredentialsParameters = {
  email: unknown
  password: unknown
  /** the client's IP, the source the login throttle counts by (`getClientIp`), null when unknown */
  ip: string | null
  /** the login throttle's limits (lib/web/auth/loginThrottle.ts LOGIN_THROTTLE unless told) */
  limits?: LoginThrottleLimits
  /** the time of the attempt (the throttle's window); now unless told */
  now?: Date
}

export type AuthorizeCredentialsReturnType =
  | { ok: true; user: SessionUser & { name: string; sessionVersion: number } }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterMs: number }

const MAX_EMAIL_LENGTH = 254
const MAX_PASSWORD_LENGTH = 1024

/**
 * Checks an email and password against the `users` table, under the login throttle
 * (beginLoginAttempt: counted in Postgres per account and source, and per source).
 * Unknown email, wrong password, a user without a password (OIDC only), a disabled user
 * and malformed input all answer the same `invalid`, and take about the same time (a dummy hash is
 * checked when there is no user), so the answer does not reveal which emails exist.
 * The password is never logged or returned.
 */
export async function authorizeCredentials(
  db: Db,
  { email, password, ip, limits, now = new Date() }: AuthorizeCredentialsParameters,
): Promise<AuthorizeCredentialsReturnType> {
  if (
    typeof email !== 'string' ||
    typeof password !== 'string' ||
    email.trim() === '' ||
    email.length > MAX_EMAIL_LENGTH ||
    password === '' ||
    password.length > MAX_PASSWORD_LENGTH
  ) {
    return { ok: false, reason: 'invalid' }
  }
  const normalizedEmail = email.trim().toLowerCase()

  const begun = await beginLoginAttempt(db, { email: normalizedEmail, ip, now, limits })
  if (!begun.allowed) return { ok: false, reason: 'throttled', retryAfterMs: begun.retryAfterMs }

  const user = await readUserByEmail(db, { email: normalizedEmail })
  const hash = user?.passwordHash ?? (await dummyHash())
  const matches = await verifyPassword({ password, hash })
  // a disabled user gets the same answer as a wrong password: nothing to learn from it
  if (!user?.passwordHash || !matches || user.disabled) return { ok: false, reason: 'invalid' }

  await clearLoginFailures(db, { attempt: begun.attempt })
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
  }
}

let dummy: Promise<string> | undefined

/** A real hash of a random password, so a missing user costs the same scrypt as a present one. */
function dummyHash(): Promise<string> {
  dummy ??= hashPassword({ password: randomUUID() })
  return dummy
}
