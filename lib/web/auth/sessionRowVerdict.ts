import type { ReadSessionRowReturnType } from './readSessionRow'
import type { SessionRefusal } from './verifySession'

export type SessionRowVerdictParameters = { row: ReadSessionRowReturnType; sessionVersion: number }

export type SessionRowVerdict =
  | { ok: true; row: NonNullable<ReadSessionRowReturnType> }
  | { ok: false; reason: Exclude<SessionRefusal, 'no_session' | 'expired'> }

/**
 * Whether the user's row still honours a session issued with `sessionVersion` (ok, with
 * the row), or why not: unknown user, disabled, another session version (an admin changed the
 * role or disabled the user since: revoked), or this session signed out (its id recorded
 * at sign-out: signed_out). The one rule of the wrapper's check
 * (verifySession) and of the intake's check before it refuses in TypeScript (checkSessionRow);
 * create_mint_order's step 0 says the same in SQL.
 */
export function sessionRowVerdict({ row, sessionVersion }: SessionRowVerdictParameters): SessionRowVerdict {
  if (!row) return { ok: false, reason: 'unknown_user' }
  if (row.disabled) return { ok: false, reason: 'disabled' }
  if (row.sessionVersion !== sessionVersion) return { ok: false, reason: 'revoked' }
  if (row.signedOut) return { ok: false, reason: 'signed_out' }
  return { ok: true, row }
}
