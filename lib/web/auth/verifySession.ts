import type { Db } from '@/db/client'
import { readSessionRow } from './readSessionRow'
import type { SessionUser } from './SessionUser'
import type { SessionClaims } from './sessionClaimsFrom'
import { sessionPastLifetime } from './sessionPastLifetime'
import { sessionRowVerdict } from './sessionRowVerdict'

export type VerifySessionParameters = {
  /** the session cookie's claims (lib/web/auth/readSessionClaims.ts), null without a session */
  claims: SessionClaims | null
  now: Date
  /** the absolute lifetime (SESSION_MAX_AGE_HOURS), counted from the sign-in time in the claims */
  maxAgeSeconds: number
}

/** Why a session is not honoured; each is answered as "not signed in" (401, or the login page). */
export type SessionRefusal = 'no_session' | 'expired' | 'unknown_user' | 'disabled' | 'revoked' | 'signed_out'

export type VerifySessionReturnType = { ok: true; user: SessionUser } | { ok: false; reason: SessionRefusal }

/**
 * Decides, on every request, whether a session still stands (docs/api.md "Auth": a role change
 * or a disabled user takes effect on that user's next request). It reads the user's row
 * (nothing cached across requests) and refuses a session signed in longer ago than the
 * absolute lifetime, an unknown or disabled user, a session issued with another
 * `session_version` (an admin changed the role or disabled the user since: revoked), and
 * a session that was signed out (its id in revoked_sessions: signed_out), however valid
 * its cookie still is.
 * The user it returns carries the database's email and role, never the token's.
 */
export async function verifySession(
  db: Db,
  { claims, now, maxAgeSeconds }: VerifySessionParameters,
): Promise<VerifySessionReturnType> {
  if (!claims) return { ok: false, reason: 'no_session' }
  if (sessionPastLifetime({ claims, now, maxAgeSeconds })) return { ok: false, reason: 'expired' }
  const row = await readSessionRow(db, { userId: claims.id, sessionId: claims.sessionId })
  const verdict = sessionRowVerdict({ row, sessionVersion: claims.sessionVersion })
  if (!verdict.ok) return verdict
  return { ok: true, user: { id: verdict.row.id, email: verdict.row.email, role: verdict.row.role } }
}
