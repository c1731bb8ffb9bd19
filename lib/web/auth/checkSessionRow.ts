import type { Db } from '@/db/client'
import { ForbiddenError, UnauthenticatedError } from '@/lib/web/errors/auth'
import type { SessionToCheck } from './ClaimedSessionUser'
import { logSessionRefusal } from './logSessionRefusal'
import { readSessionRow } from './readSessionRow'
import { sessionRowVerdict } from './sessionRowVerdict'

export type CheckSessionRowParameters = { session: SessionToCheck }

/**
 * The check create_mint_order makes first, as a statement of its own: for an intake
 * refused BEFORE its statement is sent (the request fails a rule checked in TypeScript), so
 * that a session that no longer stands is still answered first (401, then 403), as the
 * route wrapper's order of checks says (docs/api.md). Unknown user (or an id that is not a
 * uuid), disabled, another session version, a signed-out session: UnauthenticatedError, logged like every refused
 * session; the row's role not allowed: ForbiddenError. Returns when the session stands.
 */
export async function checkSessionRow(db: Db, { session }: CheckSessionRowParameters): Promise<void> {
  const row = await readSessionRow(db, { userId: session.id, sessionId: session.sessionId })
  const verdict = sessionRowVerdict({ row, sessionVersion: session.sessionVersion })
  if (!verdict.ok) {
    logSessionRefusal({ reason: verdict.reason, userId: session.id })
    throw new UnauthenticatedError()
  }
  if (!session.allowedRoles.includes(verdict.row.role)) throw new ForbiddenError()
}
