import type postgres from 'postgres'

export type TaskBusy = { task: string; runs: number; busyMs: number; p50Ms: number; p95Ms: number }

/**
 * How long worker slots were busy per task in a window (sum of the attempts'
 * duration_ms, the same figures the admin metrics use), and how many runs.
 */
export async function listWorkerBusy(
  sql: postgres.Sql,
  { from, to }: { from: number; to: number },
): Promise<TaskBusy[]> {
  const rows = await sql<{ task: string; runs: number; busy: number; p50: number; p95: number }[]>`
    select task, count(*)::int as runs, coalesce(sum(duration_ms), 0)::float8 as busy,
      coalesce(percentile_disc(0.5) within group (order by duration_ms), 0)::float8 as p50,
      coalesce(percentile_disc(0.95) within group (order by duration_ms), 0)::float8 as p95
    from job_events
    where event in ('succeeded', 'failed')
      and at >= to_timestamp(${from / 1000}) and at <= to_timestamp(${to / 1000})
    group by task order by busy desc`
  return rows.map((r) => ({ task: r.task, runs: r.runs, busyMs: r.busy, p50Ms: r.p50, p95Ms: r.p95 }))
}
