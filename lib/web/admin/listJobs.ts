import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { HOUSEKEEPING_TASKS, isHousekeepingTask } from '@/lib/jobs/jobKeys'
import { isLiveJobState, type JobState } from '@/lib/jobs/jobStates'
import { liveJobsSql } from '@/lib/jobs/liveJobsSql'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import type { ApiJob, ApiJobList } from './apiTypes'
import { classifyJobQuery, type JobQuery } from './classifyJobQuery'
import { decodeJobCursor, encodeJobCursor } from './jobCursor'
import { containsPattern, isoSql } from './sql'

export type ListJobsParameters = {
  state?: JobState
  task?: string
  /** free text: job id, order id, recipient, tx hash or error text (see classifyJobQuery) */
  q?: string
  cursor?: string
  /** page size, 1 to 200 (default 50) */
  limit?: number
  /**
   * `hide`: no routine job of a housekeeping task (lib/jobs/jobKeys HOUSEKEEPING_TASKS); their retrying and dead jobs
   * are listed all the same, and a `task` naming one or a job id in `q` finds them. `show` (the default here; GET
   * /api/admin/jobs defaults to `hide`): every job.
   */
  housekeeping?: HousekeepingFilter
}

/** whether the jobs list shows the housekeeping tasks' routine jobs */
export const HOUSEKEEPING_FILTERS = ['hide', 'show'] as const
export type HousekeepingFilter = (typeof HOUSEKEEPING_FILTERS)[number]

export type ListJobsReturnType = ApiJobList

export const DEFAULT_JOBS_PAGE = 50
export const MAX_JOBS_PAGE = 200

type JobRow = {
  job_id: bigint
  task: string
  state: JobState
  attempts: number
  max_attempts: number
  last_error: string | null
  order_id: string | null
  run_at: string | null
  locked_at: string | null
  locked_by: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
  order_status: string | null
  order_to: string | null
  order_amount_wei: string | null
}

/**
 * The jobs list, newest first, with keyset pagination on the job id (no OFFSET, no
 * count): a live state reads graphile-worker's small table of live jobs, plus the SQS
 * jobs in that state (their state is in `job_records` only); `done` and
 * `cancelled` read the history (`job_records`) through its indexes; no state reads both.
 * Stays fast at millions of history rows (see listJobs.int.test.ts).
 */
export async function listJobs(db: DbOrTx, p: ListJobsParameters = {}): Promise<ListJobsReturnType> {
  const { query, limit } = buildListJobsQuery(p)
  const rows = await db.execute<JobRow>(query)
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return {
    items: page.map(rowToApiJob),
    nextCursor: rows.length > limit && last ? encodeJobCursor(BigInt(last.job_id)) : null,
  }
}

/** The list's one SQL statement (exported so a test can EXPLAIN it). */
export function buildListJobsQuery(p: ListJobsParameters = {}): { query: SQL; limit: number } {
  const limit = Math.min(Math.max(p.limit ?? DEFAULT_JOBS_PAGE, 1), MAX_JOBS_PAGE)
  const before = p.cursor ? decodeJobCursor(p.cursor) : null
  const search = classifyJobQuery(p.q)
  const take = limit + 1
  const hideHousekeeping =
    p.housekeeping === 'hide' && !(p.task !== undefined && isHousekeepingTask(p.task)) && search?.kind !== 'jobId'
  // the state a side's row is in, checked when housekeeping is hidden (a live row's state is graphile-worker's)
  const hk = (state: SQL): SQL | null => (hideHousekeeping ? state : null)
  // the history rows a side reads: every job record, or (searching error text) the matching jobs' records, newest first
  const records =
    search?.kind === 'text'
      ? sql`${errorMatchesSql(search.text, before)} c join job_records r on r.job_id = c.job_id`
      : sql`job_records r`

  let inner: SQL
  if (p.state && isLiveJobState(p.state)) {
    // graphile-worker's live jobs of that state, and the SQS jobs whose history says it
    // (job_records_state_idx: the rows of one state, newest first; each checked in the outbox by its key)
    inner = sql`(select ${liveColumns} from ${liveJobsSql} l left join job_records r on r.job_id = l.job_id
        where ${and([sql`l.state = ${p.state}`, ...filters('live', { task: p.task, before, query: search, housekeepingState: hk(sql`l.state`) })])}
        order by l.job_id desc limit ${take})
      union all
      (select ${sqsColumns} from ${records}
        where ${and([sql`r.state = ${p.state}`, isSqsJob, ...filters('history', { task: p.task, before, query: search, housekeepingState: hk(sql`r.state`) })])}
        order by r.job_id desc limit ${take})`
  } else if (p.state) {
    const stateCond =
      p.state === 'cancelled'
        ? sql`r.state = 'cancelled'`
        : // a history row whose job left graphile-worker's table without being marked
          // cancelled has finished: graphile-worker deletes a job only when it completed;
          // an SQS job has finished when its history says so
          sql`r.state <> 'cancelled' and (r.state = 'done' or not ${isSqsJob})`
    inner = sql`select ${historyColumns} from ${records} left join ${liveJobsSql} l on l.job_id = r.job_id
      where ${and([stateCond, sql`l.job_id is null`, ...filters('history', { task: p.task, before, query: search, housekeepingState: hk(sql`r.state`) })])}
      order by r.job_id desc limit ${take}`
  } else {
    inner = sql`(select ${historyColumns} from ${records} left join ${liveJobsSql} l on l.job_id = r.job_id
        where ${and(filters('history', { task: p.task, before, query: search, housekeepingState: hk(sql`coalesce(l.state, r.state)`) }))}
        order by r.job_id desc limit ${take})
      union all
      (select ${liveColumns} from ${liveJobsSql} l left join job_records r on r.job_id = l.job_id
        where ${and([sql`r.job_id is null`, ...filters('live', { task: p.task, before, query: search, housekeepingState: hk(sql`l.state`) })])}
        order by l.job_id desc limit ${take})`
  }

  const query = sql`
    select u.job_id, u.task, u.state, u.attempts, u.max_attempts, u.last_error, u.order_id::text as order_id,
      ${isoSql(sql`u.run_at`)} as run_at, ${isoSql(sql`u.locked_at`)} as locked_at, u.locked_by,
      ${isoSql(sql`u.created_at`)} as created_at, ${isoSql(sql`u.updated_at`)} as updated_at,
      ${isoSql(sql`u.finished_at`)} as finished_at,
      o.status::text as order_status, o.to_address as order_to, o.amount_wei::text as order_amount_wei
    from (${inner}) u
    left join mint_orders o on o.id = u.order_id
    order by u.job_id desc
    limit ${take}`
  return { query, limit }
}

/**
 * A job carried by SQS: its outbox row, found by its primary key. Such a
 * job is never in graphile-worker's table; its state lives in job_records alone. A scalar
 * subquery, not EXISTS: the planner may turn an EXISTS into a hash of the whole outbox
 * (every SQS job ever); this stays one index probe per row it is asked about.
 */
const isSqsJob = sql`coalesce((select true from sqs_outbox x where x.job_id = r.job_id), false)`

// Columns of a history row (job_records), overlaid with its live row when the job is
// still in graphile-worker's table: the live state wins. max_attempts shows the job's own
// (the worker lowers graphile-worker's to the attempts made on a permanent error). An SQS
// job shows its history's state (queued, running, retrying, dead...), looked up only for a
// row not in graphile's table and not done or cancelled: a finished graphile job pays nothing.
const historyColumns = sql`r.job_id, r.task,
  case when l.job_id is not null then l.state when r.state in ('cancelled', 'done') then r.state
    when ${isSqsJob} then r.state else 'done' end as state,
  coalesce(l.attempts, r.attempts) as attempts, greatest(r.max_attempts, l.max_attempts) as max_attempts,
  coalesce(l.last_error, r.last_error) as last_error, coalesce(r.order_id, l.payload_order_id) as order_id,
  l.run_at, l.locked_at, l.locked_by, r.created_at, greatest(r.updated_at, l.updated_at) as updated_at,
  case when l.job_id is null then r.finished_at end as finished_at`

// Columns of an SQS job (never in graphile-worker's table): its history row alone.
const sqsColumns = sql`r.job_id, r.task, r.state, r.attempts, r.max_attempts, r.last_error, r.order_id,
  null::timestamptz as run_at, null::timestamptz as locked_at, null::text as locked_by, r.created_at, r.updated_at,
  r.finished_at`

// Columns of a live job, with its history row when it has one.
const liveColumns = sql`l.job_id, l.task, l.state, l.attempts, greatest(r.max_attempts, l.max_attempts) as max_attempts,
  coalesce(l.last_error, r.last_error) as last_error, coalesce(r.order_id, l.payload_order_id) as order_id,
  l.run_at, l.locked_at, l.locked_by, coalesce(r.created_at, l.created_at) as created_at,
  l.updated_at, null::timestamptz as finished_at`

type FilterInput = {
  task?: string
  before: bigint | null
  query: JobQuery | null
  /** the row's state, when the housekeeping tasks' routine jobs are hidden; null: every job */
  housekeepingState: SQL | null
}

/** the housekeeping tasks as a SQL array, for `task <> all(...)` */
const housekeepingTasksSql = sql`array[${sql.join(
  HOUSEKEEPING_TASKS.map((t) => sql`${t}`),
  sql`, `,
)}]::text[]`

/**
 * The WHERE conditions for one side: `history` filters on job_records' indexed
 * columns (task, job_id, order_id, last_error); `live` on graphile-worker's rows.
 */
function filters(side: 'history' | 'live', { task, before, query, housekeepingState }: FilterInput): SQL[] {
  const id = side === 'history' ? sql`r.job_id` : sql`l.job_id`
  const taskCol = side === 'history' ? sql`r.task` : sql`l.task`
  // the history side uses the indexed column alone; a live row may carry the order only in its payload
  const orderId = side === 'history' ? sql`r.order_id` : sql`coalesce(r.order_id, l.payload_order_id)`
  const out: SQL[] = []
  if (task) out.push(sql`${taskCol} = ${task}`)
  if (before !== null) out.push(sql`${id} < ${before.toString()}::bigint`)
  // the history side searching error text reads only the matching jobs' records (errorMatchesSql)
  if (query && !(query.kind === 'text' && side === 'history')) out.push(queryCondition(query, { id, orderId }))
  // a housekeeping job in trouble (retrying, dead) stays listed: no silent loss (docs/architecture.md invariant 5)
  if (housekeepingState)
    out.push(sql`(${taskCol} <> all(${housekeepingTasksSql}) or ${housekeepingState} in ('retrying', 'dead'))`)
  return out
}

function queryCondition(q: JobQuery, c: { id: SQL; orderId: SQL }): SQL {
  switch (q.kind) {
    case 'jobId':
      // 8 digits are a job id, or the start of an order id made only of digits: either matches
      return q.orderIdPrefix
        ? sql`(${c.id} = ${q.jobId.toString()}::bigint or ${c.orderId} between ${q.orderIdPrefix.from}::uuid and ${q.orderIdPrefix.to}::uuid)`
        : sql`${c.id} = ${q.jobId.toString()}::bigint`
    case 'orderId':
      return sql`${c.orderId} = ${q.orderId}::uuid`
    case 'recipient':
      return sql`${c.orderId} in (select o2.id from mint_orders o2 where lower(o2.to_address) = ${q.address})`
    case 'txHash':
      return sql`${c.orderId} in (select t2.order_id from chain_txs t2 where t2.hash = ${q.hash} and t2.order_id is not null)`
    case 'orderIdPrefix':
      return sql`${c.orderId} between ${q.from}::uuid and ${q.to}::uuid`
    case 'hexPrefix': {
      // hex digits only (classifyJobQuery): nothing to escape in the pattern
      const start = `${q.prefix}%`
      return sql`${c.orderId} in (select o2.id from mint_orders o2 where lower(o2.to_address) like ${start}
        union select t2.order_id from chain_txs t2 where t2.hash like ${start} and t2.order_id is not null)`
    }
    case 'text': {
      // a live row (its history row, if any, joined as r): its own error, its record's, its timeline's
      const pattern = containsPattern(q.text)
      return sql`(l.last_error ilike ${pattern} or r.last_error ilike ${pattern}
        or exists (select 1 from job_events e2 where e2.job_id = l.job_id and e2.error is not null and e2.error ilike ${pattern}))`
    }
  }
}

/**
 * The jobs whose last error or any timeline event's error contains the text (an earlier attempt's error is kept only
 * in the timeline), each once, newest first: two streams in job id order, merged. Each stream reads only the rows that
 * carry an error (job_records_errored_idx, job_events_errored_job_idx), newest first, so a common text stops after
 * the page's jobs instead of gathering every match; a rare one is planned through the trigram indexes and sorted
 * (few rows). DISTINCT ON, not DISTINCT: it is done on ordered input (a Unique over the merge), never hashed, so the
 * order the page needs is kept and the limit reaches the streams.
 */
function errorMatchesSql(text: string, before: bigint | null): SQL {
  const pattern = containsPattern(text)
  const belowR = before === null ? sql`` : sql` and r2.job_id < ${before.toString()}::bigint`
  const belowE = before === null ? sql`` : sql` and e2.job_id < ${before.toString()}::bigint`
  return sql`(select distinct on (m.job_id) m.job_id from (
      (select r2.job_id from job_records r2 where r2.last_error is not null and r2.last_error ilike ${pattern}${belowR}
        order by r2.job_id desc)
      union all
      (select e2.job_id from job_events e2
        where e2.job_id is not null and e2.error is not null and e2.error ilike ${pattern}${belowE}
        order by e2.job_id desc)
    ) m order by m.job_id desc)`
}

function and(conds: SQL[]): SQL {
  return conds.length === 0 ? sql`true` : sql.join(conds, sql` and `)
}

function rowToApiJob(r: JobRow): ApiJob {
  return {
    id: r.job_id.toString(),
    task: r.task,
    state: r.state,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    lastError: r.last_error,
    orderId: r.order_id,
    runAt: r.run_at,
    lockedAt: r.locked_at,
    lockedBy: r.locked_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    order:
      r.order_id && r.order_status && r.order_to && r.order_amount_wei
        ? { orderId: r.order_id, status: r.order_status, to: r.order_to, amount: formatOrderAmount(r.order_amount_wei) }
        : null,
  }
}
