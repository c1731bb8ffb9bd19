import { createHash } from 'node:crypto'
import { and, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { loginFailures } from '@/db/schema/users'
import { loginSourceOf } from './loginSource'
import { LOGIN_THROTTLE, type LoginThrottleLimits } from './loginThrottle'

export type BeginLoginAttemptParameters = {
  /** the email as typed; compared trimmed and lowercased */
  email: string
  /** the client's address (lib/web/auth/getClientIp.ts), null when unknown */
  ip: string | null
  now: Date
  limits?: LoginThrottleLimits
}

/** An attempt let through, counted as failed until `clearLoginFailures` takes it back. */
export type LoginAttempt = { id: string; accountKey: string; source: string }

export type BeginLoginAttemptReturnType =
  | { allowed: true; attempt: LoginAttempt }
  | { allowed: false; retryAfterMs: number }

/**
 * The login throttle's check, before the password is looked at (lib/web/auth/loginThrottle.ts
 * for the limits): refused while this account has `perAccountAndSource` failures from this
 * source within the window, or this source has `perSource` failures whatever the account,
 * with the time until the oldest of them leaves the window. Otherwise the attempt is
 * recorded as a failure at once and allowed: it is taken back only when the password was
 * right (clearLoginFailures), so concurrent guesses cannot all slip past the check, and an
 * attempt that crashes counts as failed. Refused attempts are not recorded, so a source
 * holds at most `perSource` rows per window. The check and the record run in one
 * transaction under a lock on the source (taken in every web process alike, since the
 * count lives in Postgres), and rows older than the window are pruned first.
 *
 * @example
 * const begun = await beginLoginAttempt(db, { email, ip, now: new Date() })
 * if (!begun.allowed) return refuse(begun.retryAfterMs)
 */
export async function beginLoginAttempt(
  db: Db,
  { email, ip, now, limits = LOGIN_THROTTLE }: BeginLoginAttemptParameters,
): Promise<BeginLoginAttemptReturnType> {
  const accountKey = createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
  const source = loginSourceOf(ip)
  const since = new Date(now.getTime() - limits.windowMs)
  // the table's bound: nothing older than the window counts, for any source
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, since))

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login_failures:${source}`}, 0))`)
    // the failure that must leave the window before one more is allowed (the limit-th newest), per key
    const oldestBlocking = (where: SQL, limit: number) =>
      tx
        .select({ at: loginFailures.failedAt })
        .from(loginFailures)
        .where(and(where, gt(loginFailures.failedAt, since)))
        .orderBy(desc(loginFailures.failedAt))
        .offset(limit - 1)
        .limit(1)
    const [pair] = await oldestBlocking(
      sql`${eq(loginFailures.accountKey, accountKey)} and ${eq(loginFailures.source, source)}`,
      limits.perAccountAndSource,
    )
    const [fromSource] = await oldestBlocking(eq(loginFailures.source, source), limits.perSource)
    const blockedUntil = Math.max(
      pair ? pair.at.getTime() + limits.windowMs : 0,
      fromSource ? fromSource.at.getTime() + limits.windowMs : 0,
    )
    if (blockedUntil > now.getTime()) return { allowed: false, retryAfterMs: blockedUntil - now.getTime() }
    const [row] = await tx
      .insert(loginFailures)
      .values({ accountKey, source, failedAt: now })
      .returning({ id: loginFailures.id })
    if (!row) throw new Error('login_failures: no row inserted')
    return { allowed: true, attempt: { id: row.id.toString(), accountKey, source } }
  })
}
