import { DATABASE_ROLES, type RuntimeRole } from '@/db/roles/roleNames'
import { DEV_DATABASE_PASSWORDS } from '../../cli/config/devDatabasePasswords'

export type DatabaseUrlAsParameters = {
  role: RuntimeRole
  /** the role's password; the dev one by default (local stack and tests only) */
  password?: string
}

/**
 * The same database as `databaseUrl` (the owner's, say), reached as a runtime role:
 * how the local stack and the test harness hand the web and the workers their own login.
 */
export function databaseUrlAs(
  databaseUrl: string,
  { role, password = DEV_DATABASE_PASSWORDS[role] }: DatabaseUrlAsParameters,
): string {
  const url = new URL(databaseUrl)
  url.username = DATABASE_ROLES[role]
  url.password = encodeURIComponent(password)
  return url.toString()
}
