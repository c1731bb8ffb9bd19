import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { countDeadJobs } from '@/lib/jobs/countDeadJobs'
import { GRAPHILE_LOCK_TIMEOUT_MS, LIVE_JOB_STATES, type LiveJobState } from '@/lib/jobs/jobStates'
import { listTaskNames } from '@/lib/jobs/listTaskNames'
import { liveJobsSql } from '@/lib/jobs/liveJobsSql'
import type { ApiMetrics, ApiTaskMetrics } from './apiTypes'
import { isoSql } from './sql'

export type ReadJobMetricsParameters = {
  /** failure rates, run times and throughput look back this far (default one hour) */
  windowSeconds?: number
  /** throughput bucket width (default one minute) */
  bucketSeconds?: number
  /** the worker's heartbeat and takeover thresholds, shown next to the run times */
  heartbeatMs: number
  staleAfterMs: number
  /** how many dead letters to list (the count is always exact) */
  recentDeadLetters?: number
}

export type ReadJobMetricsReturnType = ApiMetrics

/**
 * The figures the seeds ask to watch, all computed in Postgres from what it holds now:
 * - depth per task and state, and the oldest queued job's age, from graphile-worker's
 *   live jobs (a small table: finished jobs are deleted);
 * - per task over the window, from the timeline (`job_events`, indexed on event and
 *   time): attempts that succeeded and failed, failure rate = failed / (succeeded +
 *   failed), run time p50/p95 (percentile_disc: an observed value) and max from the
 *   `duration_ms` of 'succeeded' and 'failed' events, jobs that died;
 * - dead letters: the exact count and the most recent ones;
 * - throughput: enqueued, succeeded and failed per bucket over the window.
 * No figure scans the history: each reads the live table or the window through an index.
 */
export async function readJobMetrics(db: DbOrTx, p: ReadJobMetricsParameters): Promise<ReadJobMetricsReturnType> {
  const windowSeconds = p.windowSeconds ?? 3600
  const bucketSeconds = p.bucketSeconds ?? 60
  const buckets = Math.max(1, Math.ceil(windowSeconds / bucketSeconds))
  const windowSql = sql`make_interval(secs => ${windowSeconds})`
  const bucketSql = sql`make_interval(secs => ${bucketSeconds})`

  return db.transaction(
    async (tx) => {
      const [now] = await tx.execute<{ now: string }>(sql`select ${isoSql(sql`now()`)} as now`)

      const depthRows = await tx.execute<{
        task: string
        state: LiveJobState
        n: number
        oldest_age: number | null
      }>(sql`
        select l.task, l.state, count(*)::int as n,
          extract(epoch from now() - min(l.run_at))::float8 as oldest_age
        from ${liveJobsSql} l
        group by l.task, l.state`)

      const [oldest] = await tx.execute<{ job_id: bigint; task: string; age: number; run_at: string }>(sql`
        select l.job_id, l.task, extract(epoch from now() - l.run_at)::float8 as age, ${isoSql(sql`l.run_at`)} as run_at
        from ${liveJobsSql} l
        where l.state = 'queued'
        order by l.run_at, l.job_id
        limit 1`)

      const windowRows = await tx.execute<{
        task: string
        succeeded: number
        failed: number
        died: number
        p50: number | null
        p95: number | null
        max: number | null
      }>(sql`
        select task,
          count(*) filter (where event = 'succeeded')::int as succeeded,
          count(*) filter (where event = 'failed')::int as failed,
          count(*) filter (where event = 'dead')::int as died,
          percentile_disc(0.5) within group (order by duration_ms) filter (where event <> 'dead') as p50,
          percentile_disc(0.95) within group (order by duration_ms) filter (where event <> 'dead') as p95,
          max(duration_ms) filter (where event <> 'dead') as max
        from job_events
        where event in ('succeeded', 'failed', 'dead') and at >= now() - ${windowSql}
        group by task`)

      const knownTasks = await listTaskNames(tx)

      const deadCount = await countDeadJobs(tx)
      const recentDead = await tx.execute<{
        job_id: bigint
        task: string
        order_id: string | null
        attempts: number
        max_attempts: number
        last_error: string | null
        updated_at: string
      }>(sql`
        select l.job_id, l.task, coalesce(r.order_id, l.payload_order_id)::text as order_id, l.attempts,
          greatest(l.max_attempts, r.max_attempts) as max_attempts, l.last_error, ${isoSql(sql`l.updated_at`)} as updated_at
        from ${liveJobsSql} l
        left join job_records r on r.job_id = l.job_id
        where l.state = 'dead'
        order by l.updated_at desc, l.job_id desc
        limit ${p.recentDeadLetters ?? 10}`)

      // the window's start written out (not read from the series): the planner then estimates the window's events
      // from the index's statistics (a few thousand), where a subquery's value would plan for a third of the table
      // (a parallel plan whose workers' start cost more than the count)
      const throughputRows = await tx.execute<{ at: string; enqueued: number; succeeded: number; failed: number }>(sql`
        with bounds as (
          select date_bin(${bucketSql}, now(), timestamptz '2000-01-01 00:00:00+00') as last
        ), series as (
          select generate_series(b.last - ${bucketSql} * ${buckets - 1}::int, b.last, ${bucketSql}) as bucket from bounds b
        ), counts as (
          select date_bin(${bucketSql}, e.at, timestamptz '2000-01-01 00:00:00+00') as bucket, e.event, count(*)::int as n
          from job_events e
          where e.event in ('enqueued', 'succeeded', 'failed')
            and e.at >= date_bin(${bucketSql}, now(), timestamptz '2000-01-01 00:00:00+00') - ${bucketSql} * ${buckets - 1}::int
          group by 1, 2
        )
        select ${isoSql(sql`s.bucket`)} as at,
          coalesce(sum(c.n) filter (where c.event = 'enqueued'), 0)::int as enqueued,
          coalesce(sum(c.n) filter (where c.event = 'succeeded'), 0)::int as succeeded,
          coalesce(sum(c.n) filter (where c.event = 'failed'), 0)::int as failed
        from series s left join counts c on c.bucket = s.bucket
        group by s.bucket
        order by s.bucket`)

      // every task graphile-worker knows, plus any seen in the window
      const taskNames = [...new Set([...knownTasks, ...windowRows.map((r) => r.task)])].sort()
      const emptyDepth = (): Record<LiveJobState, number> =>
        Object.fromEntries(LIVE_JOB_STATES.map((s) => [s, 0])) as Record<LiveJobState, number>
      const totals = emptyDepth()
      const tasks: ApiTaskMetrics[] = taskNames.map((task) => {
        const depth = emptyDepth()
        let oldestQueuedAgeSeconds: number | null = null
        for (const row of depthRows.filter((r) => r.task === task)) {
          depth[row.state] = row.n
          totals[row.state] += row.n
          if (row.state === 'queued') oldestQueuedAgeSeconds = roundSeconds(row.oldest_age)
        }
        const w = windowRows.find((r) => r.task === task)
        const succeeded = w?.succeeded ?? 0
        const failed = w?.failed ?? 0
        return {
          task,
          depth,
          oldestQueuedAgeSeconds,
          succeeded,
          failed,
          failureRate: succeeded + failed === 0 ? null : failed / (succeeded + failed),
          p50Ms: w?.p50 ?? null,
          p95Ms: w?.p95 ?? null,
          maxMs: w?.max ?? null,
          died: w?.died ?? 0,
        }
      })

      return {
        generatedAt: now?.now ?? new Date().toISOString(),
        windowSeconds,
        depth: depthRows
          .map((r) => ({ task: r.task, state: r.state, count: r.n }))
          .sort(
            (a, b) =>
              a.task.localeCompare(b.task) || LIVE_JOB_STATES.indexOf(a.state) - LIVE_JOB_STATES.indexOf(b.state),
          ),
        totals,
        oldestQueued: oldest
          ? {
              jobId: oldest.job_id.toString(),
              task: oldest.task,
              ageSeconds: roundSeconds(oldest.age) ?? 0,
              runAt: oldest.run_at,
            }
          : null,
        tasks,
        deadLetters: {
          count: deadCount,
          recent: recentDead.map((d) => ({
            id: d.job_id.toString(),
            task: d.task,
            orderId: d.order_id,
            attempts: d.attempts,
            maxAttempts: d.max_attempts,
            lastError: d.last_error,
            updatedAt: d.updated_at,
          })),
        },
        throughput: { bucketSeconds, buckets: throughputRows.map((r) => ({ ...r })) },
        limits: { heartbeatMs: p.heartbeatMs, staleAfterMs: p.staleAfterMs, lockTimeoutMs: GRAPHILE_LOCK_TIMEOUT_MS },
      }
    },
    // one snapshot: the figures add up with each other
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

function roundSeconds(value: number | null): number | null {
  return value === null ? null : Math.max(0, Math.round(value * 10) / 10)
}
