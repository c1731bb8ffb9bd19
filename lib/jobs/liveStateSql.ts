import { type SQL, sql } from 'drizzle-orm'

/**
 * The job state derived from a graphile-worker `_private_jobs` row (alias given), the
 * one place it is computed (docs/decisions/027-admin-job-states.md): a lock means a
 * worker holds it; attempts used up means a dead letter; attempts made with an error
 * means it waits for its retry; a future run_at means scheduled.
 */
export function liveStateSql(alias: string): SQL {
  const a = sql.raw(alias)
  return sql`(case
    when ${a}.locked_at is not null then 'running'
    when ${a}.attempts >= ${a}.max_attempts then 'dead'
    when ${a}.attempts > 0 and ${a}.last_error is not null then 'retrying'
    when ${a}.run_at > now() then 'scheduled'
    else 'queued' end)`
}

/** `liveStateSql(alias) = 'dead'` as a condition an index can serve: not locked, attempts used up. */
export function deadJobSql(alias: string): SQL {
  const a = sql.raw(alias)
  return sql`(${a}.locked_at is null and ${a}.attempts >= ${a}.max_attempts)`
}

/** `liveStateSql(alias) = 'retrying'` as a condition: not locked, failed, attempts left. */
export function retryingJobSql(alias: string): SQL {
  const a = sql.raw(alias)
  return sql`(${a}.locked_at is null and ${a}.attempts > 0 and ${a}.attempts < ${a}.max_attempts and ${a}.last_error is not null)`
}
