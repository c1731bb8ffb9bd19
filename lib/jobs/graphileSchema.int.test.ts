import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'

// What lib/jobs relies on in graphile-worker's private schema, read from a migrated
// database (docs/decisions/011-graphile-worker-private-tables.md). A graphile-worker
// upgrade that changes any of it fails here; the version check forces the re-check
// the decision record lists even when nothing here changed.

const PINNED_VERSION = '0.17.3'

/** column -> data_type of information_schema.columns */
const JOBS_COLUMNS: Record<string, string> = {
  id: 'bigint',
  job_queue_id: 'integer',
  task_id: 'integer',
  payload: 'json',
  priority: 'smallint',
  run_at: 'timestamp with time zone',
  attempts: 'smallint',
  max_attempts: 'smallint',
  last_error: 'text',
  created_at: 'timestamp with time zone',
  updated_at: 'timestamp with time zone',
  key: 'text',
  locked_at: 'timestamp with time zone',
  locked_by: 'text',
  is_available: 'boolean',
}

const TASKS_COLUMNS: Record<string, string> = {
  id: 'integer',
  identifier: 'text',
}

/** the public view the tests and the bench read */
const JOBS_VIEW_COLUMNS: Record<string, string> = {
  id: 'bigint',
  task_identifier: 'text',
  key: 'text',
  attempts: 'smallint',
  max_attempts: 'smallint',
}

/**
 * function -> its identity arguments and result, as
 * pg_get_function_identity_arguments / pg_get_function_result print them
 */
const FUNCTIONS: Record<string, { args: string; returns: string }> = {
  add_job: {
    args: 'identifier text, payload json, queue_name text, run_at timestamp with time zone, max_attempts integer, job_key text, priority integer, flags text[], job_key_mode text',
    returns: 'graphile_worker._private_jobs',
  },
  complete_jobs: { args: 'job_ids bigint[]', returns: 'SETOF graphile_worker._private_jobs' },
  reschedule_jobs: {
    args: 'job_ids bigint[], run_at timestamp with time zone, priority integer, attempts integer, max_attempts integer',
    returns: 'SETOF graphile_worker._private_jobs',
  },
  force_unlock_workers: { args: 'worker_ids text[]', returns: 'void' },
}

/**
 * Functions of schema public whose body names graphile_worker (docs/decisions/011, "One home"):
 * only enqueue_job (db/functions/enqueue_job.sql), the one enqueue, which calls add_job and,
 * for the SQS transport, draws job ids from its job id sequence. The intake
 * (create_mint_order) and the notification wake-up (wake_notify_dispatch) call enqueue_job.
 */
// archive_history (decision 066) only reads _private_jobs: a job graphile-worker still holds is live, never archived
const OUR_FUNCTIONS_IN_GRAPHILE = ['archive_history', 'enqueue_job']

describe("graphile-worker's private schema, as lib/jobs uses it", () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase({ max: 2 })
  })
  afterAll(async () => {
    await t.drop()
  })

  const columnsOf = async (table: string) => {
    const rows = await t.db.execute<{ column_name: string; data_type: string }>(sql`
      select column_name, data_type from information_schema.columns
      where table_schema = 'graphile_worker' and table_name = ${table}`)
    return Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]))
  }

  it(`is graphile-worker ${PINNED_VERSION}, installed and pinned: an upgrade must re-check the decision record 011`, () => {
    const require = createRequire(import.meta.url)
    const installed = JSON.parse(readFileSync(require.resolve('graphile-worker/package.json'), 'utf8')) as {
      version: string
    }
    expect(installed.version).toBe(PINNED_VERSION)
    const ours = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(ours.dependencies['graphile-worker']).toBe(PINNED_VERSION)
  })

  it('has run its migrations up to 000019 (0.17.3)', async () => {
    const [row] = await t.db.execute<{ last: number }>(sql`select max(id)::int as last from graphile_worker.migrations`)
    expect(row?.last).toBe(19)
  })

  it('_private_jobs has every column mintdesk reads or writes, with its type', async () => {
    expect(await columnsOf('_private_jobs')).toMatchObject(JOBS_COLUMNS)
  })

  it('_private_tasks has id and identifier', async () => {
    expect(await columnsOf('_private_tasks')).toMatchObject(TASKS_COLUMNS)
  })

  it('the jobs view has the columns the tests and the bench read', async () => {
    expect(await columnsOf('jobs')).toMatchObject(JOBS_VIEW_COLUMNS)
  })

  it('a job is available to a worker only when unlocked with attempts left (what a dead letter and endAttemptsNow rely on)', async () => {
    const [row] = await t.db.execute<{ expr: string | null }>(sql`
      select generation_expression as expr from information_schema.columns
      where table_schema = 'graphile_worker' and table_name = '_private_jobs' and column_name = 'is_available'`)
    expect(row?.expr?.replace(/\s+/g, ' ')).toBe('((locked_at IS NULL) AND (attempts < max_attempts))')
  })

  it('the SQL functions lib/jobs calls keep their signatures', async () => {
    const rows = await t.db.execute<{ name: string; args: string; returns: string }>(sql`
      select p.proname as name, pg_get_function_identity_arguments(p.oid) as args, pg_get_function_result(p.oid) as returns
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'graphile_worker' and p.proname in ('add_job', 'complete_jobs', 'reschedule_jobs', 'force_unlock_workers')`)
    const found = Object.fromEntries(rows.map((r) => [r.name, { args: r.args, returns: r.returns }]))
    expect(found).toEqual(FUNCTIONS)
    // one overload each: a second add_job would make the named-argument calls ambiguous
    expect(rows).toHaveLength(Object.keys(FUNCTIONS).length)
  })

  it("mintdesk's own SQL functions that reach into graphile_worker are exactly the ones decision 011 lists", async () => {
    // they call add_job (or draw from its job id sequence) inside one statement; an upgrade re-checks them too
    const rows = await t.db.execute<{ name: string }>(sql`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosrc ilike '%graphile_worker%' order by p.proname`)
    expect(rows.map((r) => r.name)).toEqual(OUR_FUNCTIONS_IN_GRAPHILE)
  })

  it('complete_jobs and reschedule_jobs leave a job alone while a worker holds it (lock younger than 4 hours)', async () => {
    const rows = await t.db.execute<{ name: string; body: string }>(sql`
      select p.proname as name, p.prosrc as body
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'graphile_worker' and p.proname in ('complete_jobs', 'reschedule_jobs')`)
    expect(rows).toHaveLength(2)
    for (const r of rows) {
      const body = r.body.replace(/\s+/g, ' ').toLowerCase()
      expect(body, r.name).toContain("locked_at is null or locked_at < now() - interval '4 hours'")
    }
  })

  it('force_unlock_workers clears locked_at and locked_by of the given workers', async () => {
    const [job] = await t.db.execute<{ id: string }>(
      sql`select id::text as id from graphile_worker.add_job('schema_probe', '{}'::json)`,
    )
    await t.db.execute(
      sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'probe-worker', attempts = 1 where id = ${job?.id}::bigint`,
    )
    await t.db.execute(sql`select graphile_worker.force_unlock_workers(array['probe-worker']::text[])`)
    const [after] = await t.db.execute<{ locked_at: string | null; locked_by: string | null; attempts: number }>(sql`
      select locked_at::text, locked_by, attempts::int as attempts from graphile_worker._private_jobs where id = ${job?.id}::bigint`)
    expect(after).toEqual({ locked_at: null, locked_by: null, attempts: 1 })
  })
})
