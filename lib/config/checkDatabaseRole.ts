import { DATABASE_ROLES, type RuntimeRole } from '@/db/roles/roleNames'
import { DEV_DATABASE_PASSWORDS } from './devDatabasePasswords'

export type CheckDatabaseRoleParameters = {
  role: RuntimeRole
  databaseUrl: string
  /** PGUSER / PGPASSWORD, which postgres.js reads when the URL has no user or password */
  env: Record<string, string | undefined>
}

export type CheckDatabaseRoleReturnType = { ok: true } | { ok: false; variables: string[]; message: string }

/**
 * Production's check that a process connects as its own least-privilege role
 * (docs/architecture.md invariant 7): the web as mintdesk_web, a worker as
 * mintdesk_worker, never as the migration owner (RDS's master user) or the other
 * process's role, and not with the dev password of the local stack. The message names
 * the user, never the password.
 */
export function checkDatabaseRole({ role, databaseUrl, env }: CheckDatabaseRoleParameters): CheckDatabaseRoleReturnType {
  const expected = DATABASE_ROLES[role]
  let user = ''
  let password = ''
  try {
    const url = new URL(databaseUrl)
    user = decodeURIComponent(url.username)
    password = decodeURIComponent(url.password)
  } catch {
    return { ok: false, variables: ['DATABASE_URL'], message: 'DATABASE_URL is not a URL' }
  }
  user ||= env.PGUSERNAME ?? env.PGUSER ?? ''
  password ||= env.PGPASSWORD ?? ''
  if (user !== expected) {
    return {
      ok: false,
      variables: ['DATABASE_URL'],
      message: `production: the ${role} connects to Postgres as ${expected} (its least-privilege role, created by the migrations), not as ${user ? `'${user}'` : 'an unnamed user'}: the migration owner's login is for migrations only`,
    }
  }
  if (password === DEV_DATABASE_PASSWORDS[role]) {
    return { ok: false, variables: [env.PGPASSWORD ? 'PGPASSWORD' : 'DATABASE_URL'], message: `production: ${expected} has the local stack's dev password` }
  }
  return { ok: true }
}
