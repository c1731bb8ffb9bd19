import { users } from '@/db/schema/users'

/** The columns of an `ApiUser` (everything but the password hash and the OIDC subject). */
export const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  disabled: users.disabled,
  sessionVersion: users.sessionVersion,
  oidcIssuer: users.oidcIssuer,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
}

/** A row selected with `userColumns` -> the API's shape (dates as ISO strings). */
export function toApiUser(row: {
  id: string
  email: string
  name: string
  role: (typeof users.$inferSelect)['role']
  disabled: boolean
  sessionVersion: number
  oidcIssuer: string | null
  createdAt: Date
  updatedAt: Date
}) {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }
}
