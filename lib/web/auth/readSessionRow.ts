import type { Db } from '@/db/client'
import type { UserRole } from '@/db/schema/users'
import { isUuid } from '@/lib/mint/isUuid'

export type ReadSessionRowParameters = {
  userId: string
  /** the session's own id (its cookie's `sid`): whether it was signed out is read in the same statement */
  sessionId: string
}

export type ReadSessionRowReturnType = {
  id: string
  email: string
  role: UserRole
  disabled: boolean
  sessionVersion: number
  /** this session was signed out (its id is in revoked_sessions) */
  signedOut: boolean
} | null

/**
 * The statement's text never changes: postgres.js prepares it
 * once per connection (parse and plan once, not per request).
 */
const SESSION_ROW_SQL =
  'select u.id::text as id, u.email, u.role::text as role, u.disabled, u.session_version, ' +
  'exists (select 1 from revoked_sessions r where r.session_id = $2::uuid) as signed_out ' +
  'from users u where u.id = $1::uuid limit 1'

/**
 * What a session is checked against on every request: the user's email, role, disabled
 * flag and session version, by primary key, and whether this very session was signed
 * out (revoked_sessions, by primary key): one statement, a named prepared statement.
 * Null for an unknown id, or a user or session id that is not a uuid (a session minted
 * by something else).
 */
export async function readSessionRow(
  db: Db,
  { userId, sessionId }: ReadSessionRowParameters,
): Promise<ReadSessionRowReturnType> {
  if (!isUuid(userId) || !isUuid(sessionId)) return null
  const [row] = await db.$client.unsafe<
    { id: string; email: string; role: UserRole; disabled: boolean; session_version: number; signed_out: boolean }[]
  >(SESSION_ROW_SQL, [userId, sessionId], { prepare: true })
  return row
    ? {
        id: row.id,
        email: row.email,
        role: row.role,
        disabled: row.disabled,
        sessionVersion: row.session_version,
        signedOut: row.signed_out,
      }
    : null
}
