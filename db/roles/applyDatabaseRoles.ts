import { setTimeout as wait } from 'node:timers/promises'
import type postgres from 'postgres'
import { DATABASE_ROLES, type RuntimeRole } from './roleNames'
import { scramVerifier } from './scramVerifier'
import { FUNCTION_GRANTS, TABLE_GRANTS, type TablePrivilege } from './tableGrants'

export type DatabaseRolePasswords = Partial<Record<RuntimeRole, { password: string }>>

export type ApplyDatabaseRolesParameters = {
  /** a role whose password is given gets it (set on every run); one without keeps the one it has */
  roles?: DatabaseRolePasswords
}

const WEB = DATABASE_ROLES.web
const WORKER = DATABASE_ROLES.worker
const BOTH = `${WEB}, ${WORKER}`
/**
 * a password goes into a statement: printable ASCII only (SASLprep leaves it as is), no way to break out of the literal
 */
const PASSWORD_SHAPE = /^[\x21-\x7e]{8,200}$/
/** errors of two databases of one server creating or altering the same (cluster-wide) role at once */
const ROLE_RACE_CODES = new Set(['23505', '42710', 'XX000', '40001', '40P01'])

/**
 * The least-privilege step of every migration (docs/architecture.md invariant 7), run by
 * db/migrate.ts AFTER graphile-worker's and Drizzle's migrations, as the migration owner,
 * so it also covers tables those migrations just added. Idempotent, in one transaction:
 * - the roles mintdesk_web and mintdesk_worker exist (LOGIN, nothing else: no superuser,
 *   no CREATEDB/CREATEROLE, no membership of the owner), each given password set again
 *   (as a SCRAM verifier computed here: the clear password never reaches the server's log);
 * - nobody but the owner creates in schema public; the runtime roles use it;
 * - the table privileges of db/roles/tableGrants.ts (all revoked, a default for every
 *   table, then the exact line of each listed one), sequences for the bigserial ids;
 * - graphile-worker's schema: what its runner (worker) and add_job / complete_jobs /
 *   reschedule_jobs (web, worker) need, and nothing of its migrations table but a read:
 *   on an up-to-date schema neither role needs CREATE. Its private tables have row level
 *   security on (no policy: no rows for anyone but the owner), so a policy lets the two
 *   roles see and change every row;
 * - mintdesk's functions kept from PUBLIC (FUNCTION_GRANTS): EXECUTE for the roles listed;
 * - drizzle's journal: read (the web's /api/ready counts the applied migrations).
 */
export async function applyDatabaseRoles(
  sql: postgres.Sql,
  { roles = {} }: ApplyDatabaseRolesParameters = {},
): Promise<void> {
  for (const [role, given] of Object.entries(roles)) {
    if (given && !PASSWORD_SHAPE.test(given.password)) {
      throw new Error(`the ${role} database role's password must be 8 to 200 printable ASCII characters without spaces`)
    }
  }
  // roles are cluster-wide: two databases of one server (the tests' template and a test's
  // own) may create or alter them at the same moment; the loser tries again
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.begin((tx) => applyInTransaction(tx, roles))
      return
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (attempt >= 5 || typeof code !== 'string' || !ROLE_RACE_CODES.has(code)) throw error
      // db/ imports nothing of ours: Node's own wait
      await wait(100 * attempt + Math.random() * 100)
    }
  }
}

async function applyInTransaction(tx: postgres.TransactionSql, roles: DatabaseRolePasswords): Promise<void> {
  for (const role of Object.keys(DATABASE_ROLES) as RuntimeRole[]) {
    const name = DATABASE_ROLES[role]
    await tx.unsafe(`
      do $$ begin
        if not exists (select 1 from pg_roles where rolname = '${name}') then create role ${name} login; end if;
      end $$`)
    await tx.unsafe(`alter role ${name} login`)
    const given = roles[role]
    if (given) await tx.unsafe(`alter role ${name} password '${scramVerifier(given.password)}'`)
  }

  // schema public: the owner's to change, the runtime roles' to use
  await tx.unsafe(`revoke create on schema public from public`)
  await tx.unsafe(`grant usage on schema public to ${BOTH}`)
  // everything else first revoked: a privilege granted by hand (TRUNCATE on a table without a line, anything to
  // PUBLIC) does not outlive a migration (lib/config/checkTablePrivileges.ts refuses to start with one)
  await tx.unsafe(`revoke all on all tables in schema public from public, ${BOTH}`)
  await tx.unsafe(`grant usage, select on all sequences in schema public to ${BOTH}`)
  for (const [table, grant] of Object.entries(TABLE_GRANTS)) {
    const exists = await tx`select to_regclass(${`public.${table}`}) is not null as ok`
    if (!exists[0]?.ok) continue
    await tx.unsafe(`revoke all on table public.${table} from ${BOTH}`)
    // an empty line: the role keeps nothing on that table
    if (grant.web.length > 0) await tx.unsafe(`grant ${list(grant.web)} on table public.${table} to ${WEB}`)
    if (grant.worker.length > 0) await tx.unsafe(`grant ${list(grant.worker)} on table public.${table} to ${WORKER}`)
  }

  // graphile-worker's queue: read everything, write the job tables, never its migrations
  await tx.unsafe(`revoke create on schema graphile_worker from public`)
  await tx.unsafe(`grant usage on schema graphile_worker to ${BOTH}`)
  await tx.unsafe(`revoke all on all tables in schema graphile_worker from ${BOTH}`)
  await tx.unsafe(`grant select, insert, update, delete on all tables in schema graphile_worker to ${BOTH}`)
  await tx.unsafe(`revoke insert, update, delete on graphile_worker.migrations from ${BOTH}`)
  const crontabs = await tx`select to_regclass('graphile_worker._private_known_crontabs') is not null as ok`
  // cron bookkeeping is the runner's (the worker's) alone
  if (crontabs[0]?.ok)
    await tx.unsafe(`revoke insert, update, delete on graphile_worker._private_known_crontabs from ${WEB}`)
  await tx.unsafe(`grant usage, select on all sequences in schema graphile_worker to ${BOTH}`)
  await tx.unsafe(`grant execute on all functions in schema graphile_worker to ${BOTH}`)
  await tx.unsafe(`
    do $$ declare t record; begin
      for t in
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'graphile_worker' and c.relkind = 'r' and c.relrowsecurity
      loop
        if not exists (select 1 from pg_policies where schemaname = 'graphile_worker' and tablename = t.relname and policyname = 'mintdesk_runtime') then
          execute format('create policy mintdesk_runtime on graphile_worker.%I to ${BOTH} using (true) with check (true)', t.relname);
        end if;
      end loop;
    end $$`)

  // mintdesk's functions kept from PUBLIC: EXECUTE for exactly the roles of FUNCTION_GRANTS
  for (const [fn, callers] of Object.entries(FUNCTION_GRANTS)) {
    const exists =
      await tx`select exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = ${fn}) as ok`
    if (!exists[0]?.ok) continue
    await tx.unsafe(`revoke all on function public.${fn} from public, ${BOTH}`)
    for (const role of callers) await tx.unsafe(`grant execute on function public.${fn} to ${DATABASE_ROLES[role]}`)
  }

  // Drizzle's journal: read only
  await tx.unsafe(`grant usage on schema drizzle to ${BOTH}`)
  await tx.unsafe(`revoke all on all tables in schema drizzle from ${BOTH}`)
  await tx.unsafe(`grant select on all tables in schema drizzle to ${BOTH}`)
}

function list(privileges: readonly TablePrivilege[]): string {
  return privileges.join(', ')
}
