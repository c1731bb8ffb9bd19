import { type SQL, sql } from 'drizzle-orm'
import { liveStateSql } from './liveStateSql'
import { payloadOrderIdSql } from './payloadOrderIdSql'

/**
 * graphile-worker's live jobs, one row each, with the derived state and the order id
 * read from the payload. Use as `from ${liveJobsSql} l`: the admin pages and the queue
 * alarms read graphile-worker's tables through it and nothing else, so they agree.
 * Raw SQL because graphile-worker's tables are not part of the Drizzle schema.
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
    ${payloadOrderIdSql('j')} as payload_order_id
  from graphile_worker._private_jobs j
  join graphile_worker._private_tasks t on t.id = j.task_id
)`
