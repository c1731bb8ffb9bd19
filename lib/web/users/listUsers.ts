import { asc } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'
import type { ApiUser } from './apiTypes'
import { toApiUser, userColumns } from './userColumns'

export type ListUsersReturnType = { items: ApiUser[] }

/** Every user, by email, for the admins' users page. A desk has tens of users, not thousands: no paging. */
export async function listUsers(db: DbOrTx): Promise<ListUsersReturnType> {
  const rows = await db.select(userColumns).from(users).orderBy(asc(users.email))
  return { items: rows.map(toApiUser) }
}
