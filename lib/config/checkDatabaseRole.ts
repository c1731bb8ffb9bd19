import { DATABASE_ROLES, type RuntimeRole } from '@/db/roles/roleNames'

export type CheckDatabaseRoleParameters = {
  role: RuntimeRole
  databaseUrl: string
  /** PGUSER, which postgres.js reads when the URL has no user */
  env: Record<string, string | undefined>
}

export type CheckDatabaseRoleReturnType = { ok: true } | { ok: false; variables: string[]; message: string }

/**
 * Production's check that a process connects as its own least-privilege role
 * (docs/architecture.md invariant 7): the web as mintdesk_web, a worker as
 * mintdesk_worker, never as the migration owner (RDS's master user) or the other
 * process's role. The message names the user, never the password. (The dev passwords of
 * the local stack cannot reach production: cli/migrate.ts refuses to set them there.)
 */
export function checkDatabaseRole({
  role,
  databaseUrl,
  env,
}: CheckDatabaseRoleParameters): CheckDatabaseRoleReturnType {
  const expected = DATABASE_ROLES[role]
  let user = ''
  try {
    user = decodeURIComponent(new URL(databaseUrl).username)
  } catch {
    return { ok: false, variables: ['DATABASE_URL'], message: 'DATABASE_URL is not a URL' }
  }
  user ||= env.PGUSERNAME ?? env.PGUSER ?? ''
  if (user !== expected) {
    return {
      ok: false,
      variables: ['DATABASE_URL'],
      message: `production: DATABASE_URL: the ${role} connects to Postgres as ${expected} (its least-privilege role, created by the migrations), not as ${user ? `'${user}'` : 'an unnamed user'}: the migration owner's login is for migrations only`,
    }
  }
  return { ok: true }
}
