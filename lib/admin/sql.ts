import { type SQL, sql } from 'drizzle-orm'
import { UUID_PATTERN } from '@/lib/mint/isUuid'

/**
 * SQL building blocks shared by the admin queries. Raw SQL (not the Drizzle query
 * builder) because graphile-worker's tables are not part of the Drizzle schema, and
 * the derived job state must be computed in exactly one place.
 */

/**
 * The job state derived from a graphile-worker `_private_jobs` row (alias given):
 * a lock means a worker holds it; attempts used up means a dead letter; attempts made
 * with an error means it waits for its retry; a future run_at means scheduled.
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

/**
 * graphile-worker's live jobs, one row each, with the derived state and the order id
 * read from the payload (`{ orderId }` for the mint tasks). Use as `from ${liveJobsSql} l`.
 */
export const liveJobsSql: SQL = sql`(
  select
    j.id as job_id,
    t.identifier as task,
    j.payload,
    j.run_at,
    j.attempts::int as attempts,
    j.max_attempts::int as max_attempts,
    j.last_error,
    j.locked_at,
    j.locked_by,
    j.key,
    j.priority::int as priority,
    j.created_at,
    j.updated_at,
    ${liveStateSql('j')} as state,
    case when (j.payload->>'orderId') ~ ${UUID_PATTERN} then (j.payload->>'orderId')::uuid end as payload_order_id
  from graphile_worker._private_jobs j
  join graphile_worker._private_tasks t on t.id = j.task_id
)`

/** A timestamptz as an ISO 8601 string in UTC with milliseconds (`2026-01-02T03:04:05.678Z`), null stays null. */
export function isoSql(expr: SQL): SQL {
  return sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/** A bigint[] parameter (drizzle would expand a JS array into a list). Ids are bigints, so the literal is safe. */
export function bigintArraySql(ids: readonly bigint[]): SQL {
  return sql`${`{${ids.map((id) => id.toString()).join(',')}}`}::bigint[]`
}

/** `%text%` for ILIKE, with the pattern characters of the text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
