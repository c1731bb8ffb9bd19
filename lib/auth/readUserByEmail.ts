import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'

export type ReadUserByEmailParameters = { email: string }
export type ReadUserByEmailReturnType = typeof users.$inferSelect | null

/** The user with this email (compared case-insensitively), or null. */
export async function readUserByEmail(
  db: DbOrTx,
  { email }: ReadUserByEmailParameters,
): Promise<ReadUserByEmailReturnType> {
  const normalized = email.trim().toLowerCase()
  if (normalized === '') return null
  const rows = await db.select().from(users).where(sql`lower(${users.email}) = ${normalized}`).limit(1)
  return rows[0] ?? null
}
