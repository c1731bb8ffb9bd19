import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { DATABASE_ROLES, type RuntimeRole } from '@/db/roles/roleNames'
import { TABLE_GRANTS } from '@/db/roles/tableGrants'

export type CheckTablePrivilegesParameters = {
  /** which process connects: its role's privileges are held to db/roles/tableGrants.ts */
  role: RuntimeRole
}

export type CheckTablePrivilegesReturnType =
  | { ok: true }
  | {
      ok: false
      variables: string[]
      message: string
      /** `PRIVILEGE on table` beyond the role's line, and default privileges that would reach new tables */
      excess: string[]
    }

/**
 * Production's start check that the process's database role holds no privilege beyond
 * what db/roles/tableGrants.ts gives it (docs/architecture.md invariant 7), read from
 * the catalogs as the role itself, so grants through PUBLIC or a role it is a member of
 * count too:
 * - on every table of schema public, each privilege Postgres has (has_table_privilege;
 *   SELECT, INSERT, UPDATE and REFERENCES also column by column) against the table's line,
 *   or none for a table without one;
 * - pg_default_acl: a default privilege on tables for the role (or PUBLIC) would reach
 *   every table a later migration creates before its grants are applied; none is allowed.
 * The migration (cli/migrate.ts, db/roles/applyDatabaseRoles.ts) sets the table
 * privileges again; a default privilege is removed with ALTER DEFAULT PRIVILEGES ... REVOKE.
 */
export async function checkTablePrivileges(
  db: DbOrTx,
  { role }: CheckTablePrivilegesParameters,
): Promise<CheckTablePrivilegesReturnType> {
  const held = await db.execute<{ table: string; privilege: string }>(sql`
    select c.relname as table, p.privilege
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']
      || case when current_setting('server_version_num')::int >= 170000 then array['MAINTAIN'] else array[]::text[] end) as p(privilege)
    where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
      and case when p.privilege in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
        then has_any_column_privilege(current_user, c.oid, p.privilege)
        else has_table_privilege(current_user, c.oid, p.privilege) end
    order by 1, 2`)
  const defaults = await db.execute<{ owner: string; schema: string | null; grantee: string; privilege: string }>(sql`
    select d.defaclrole::regrole::text as owner,
      case when d.defaclnamespace = 0 then null else d.defaclnamespace::regnamespace::text end as schema,
      case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end as grantee, a.privilege_type as privilege
    from pg_default_acl d
    cross join lateral aclexplode(d.defaclacl) a
    where d.defaclobjtype = 'r' and (a.grantee = 0 or pg_has_role(current_user, a.grantee, 'MEMBER'))
    order by 1, 2, 3, 4`)

  const excess: string[] = []
  for (const { table, privilege } of held) {
    const allowed = TABLE_GRANTS[table]?.[role] ?? []
    if (!allowed.some((p) => p.toUpperCase() === privilege)) excess.push(`${privilege} on ${table}`)
  }
  for (const d of defaults)
    excess.push(
      `${d.privilege} on the new tables of ${d.owner}${d.schema ? ` in schema ${d.schema}` : ''} (a default privilege for ${d.grantee})`,
    )
  if (excess.length === 0) return { ok: true }
  const name = DATABASE_ROLES[role]
  return {
    ok: false,
    variables: ['DATABASE_URL'],
    excess,
    message:
      `production: DATABASE_URL: the ${role}'s database role ${name} holds privileges db/roles/tableGrants.ts does not give it: ${excess.join('; ')}. ` +
      'Revoke them (the migration, cli/migrate.ts, sets the table privileges again; a default privilege goes with ALTER DEFAULT PRIVILEGES ... REVOKE)',
  }
}
