import type postgres from 'postgres'

export type AppFunction = {
  /** the function's name, as its file in db/functions is named (`create_mint_order`) */
  name: string
  /** name and argument types, as regprocedure prints them (`public.create_mint_order(jsonb)`) */
  identity: string
  /** pg_get_functiondef: the `CREATE OR REPLACE FUNCTION` that makes it as it is now */
  definition: string
}

/**
 * mintdesk's own SQL functions (trigger functions included) in schema public, by identity:
 * every function and procedure of the schema but those an extension installed there
 * (pg_trgm's). What db/functions holds one file each of (db/functions.int.test.ts) and what
 * db/schema.sql lists (scripts/db/dumpSchema.ts).
 *
 * @example
 * const fns = await listAppFunctions(sql)
 * fns.find((f) => f.name === 'enqueue_job')?.definition
 */
export async function listAppFunctions(sql: postgres.Sql): Promise<AppFunction[]> {
  // an empty search path: every name of schema public printed qualified, whatever the session's own path
  return sql.begin(async (tx) => {
    await tx`set local search_path = pg_catalog`
    return tx<AppFunction[]>`
    select p.proname as name, p.oid::regprocedure::text as identity, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prokind in ('f', 'p')
      and not exists (
        select 1 from pg_depend d
        where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
      )
    order by 2`
  })
}
