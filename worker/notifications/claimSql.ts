import { type SQL, sql } from 'drizzle-orm'

/**
 * The claim of a notification row, in one home for claimNotification (one
 * delivery or email) and claimEmails (an email job's rows): which rows may be claimed, and
 * what taking the claim writes.
 */

/** a row that may be claimed: still `pending`, and no claim on it, or its lease over (a crashed sender's) */
export const claimableSql: SQL = sql`status = 'pending' and (claimed_until is null or claimed_until <= now())`

/** the SET list of a claim: the token that completes the row, the lease, one more attempt */
export function takeClaimSql({ token, leaseMs }: { token: string; leaseMs: number }): SQL {
  return sql`claim_token = ${token}::uuid, claimed_until = now() + ${leaseMs} * interval '1 millisecond', attempts = attempts + 1, updated_at = now()`
}
