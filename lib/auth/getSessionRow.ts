import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type UserRole, users } from '@/db/schema/users'
import { isUuid } from '@/lib/mint/isUuid'

export type GetSessionRowParameters = { userId: string }

export type GetSessionRowReturnType = { id: string; email: string; role: UserRole; disabled: boolean; sessionVersion: number } | null

/**
 * What a session is checked against on every request: the user's email, role, disabled
 * flag and session version, by primary key (one indexed read). Null for an unknown id,
 * or one that is not a uuid (a session minted by something else).
 */
export async function getSessionRow(db: DbOrTx, { userId }: GetSessionRowParameters): Promise<GetSessionRowReturnType> {
  if (!isUuid(userId)) return null
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role, disabled: users.disabled, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  return row ?? null
}
