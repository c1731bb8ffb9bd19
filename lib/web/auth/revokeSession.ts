import { lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { revokedSessions } from '@/db/schema/users'
import { SESSION_MAX_AGE_HOURS_LIMIT } from '@/lib/config/envSchema'
import { isUuid } from '@/lib/mint/isUuid'
import type { SessionClaims } from './sessionClaimsFrom'

export type RevokeSessionParameters = {
  /** the claims of the session to end (its cookie, decrypted: lib/web/auth/sessionClaimsFrom.ts) */
  claims: Pick<SessionClaims, 'id' | 'sessionId' | 'authTime'>
}

export type RevokeSessionReturnType = { revoked: boolean }

/** How long a signed-out session is remembered after its sign-in: past it, no configuration lets it stand. */
const REMEMBERED_SECONDS = SESSION_MAX_AGE_HOURS_LIMIT * 60 * 60

/**
 * Ends one session on the server (sign-out: lib/web/auth/nextAuth.ts's `signOut` event):
 * its id goes into `revoked_sessions`, and every later request carrying that session's
 * cookie is refused (lib/web/auth/readSessionRow.ts, create_mint_order's step 0), while the
 * user's other sessions stand. The row is kept until the session's sign-in time plus the
 * longest lifetime SESSION_MAX_AGE_HOURS may ever be set to, so raising the setting later
 * cannot bring the session back; expired rows are pruned here, by every sign-out, which
 * bounds the table to a week of sign-outs. Idempotent; `revoked` is false when nothing
 * was written (already signed out, or a user or session id that names nothing).
 *
 * @example
 * await revokeSession(db, { claims }) // claims of the cookie being signed out
 */
export async function revokeSession(db: DbOrTx, { claims }: RevokeSessionParameters): Promise<RevokeSessionReturnType> {
  await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, sql`now()`))
  if (!isUuid(claims.id) || !isUuid(claims.sessionId)) return { revoked: false }
  const expiresAt = new Date((claims.authTime + REMEMBERED_SECONDS) * 1000).toISOString()
  // through the user's row: a session of a user that does not exist is no one's to record
  const rows = await db.execute<{ session_id: string }>(sql`
    insert into revoked_sessions (session_id, user_id, expires_at)
    select ${claims.sessionId}::uuid, u.id, ${expiresAt}::timestamptz from users u where u.id = ${claims.id}::uuid
    on conflict (session_id) do nothing
    returning session_id`)
  return { revoked: rows.length > 0 }
}
