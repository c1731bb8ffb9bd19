import type { Db } from '@/db/client'
import type { UserRole } from '@/db/schema/users'
import { isUuid } from '@/lib/mint/isUuid'

export type ReadSessionRowParameters = { userId: string }

export type ReadSessionRowReturnType = {
  id: string
  email: string
  role: UserRole
  disabled: boolean
  sessionVersion: number
} | null

/**
 * The statement's text never changes: postgres.js prepares it
 * once per connection (parse and plan once, not per request).
 */
const SESSION_ROW_SQL =
  'select id::text as id, email, role::text as role, disabled, session_version from users where id = $1::uuid limit 1'

/**
 * What a session is checked against on every request: the user's email, role, disabled
 * flag and session version, by primary key (one indexed read, a named prepared
 * statement). Null for an unknown id, or one that is not a uuid (a session minted by
 * something else).
 */
export async function readSessionRow(db: Db, { userId }: ReadSessionRowParameters): Promise<ReadSessionRowReturnType> {
  if (!isUuid(userId)) return null
  const [row] = await db.$client.unsafe<
    { id: string; email: string; role: UserRole; disabled: boolean; session_version: number }[]
  >(SESSION_ROW_SQL, [userId], { prepare: true })
  return row
    ? { id: row.id, email: row.email, role: row.role, disabled: row.disabled, sessionVersion: row.session_version }
    : null
}
