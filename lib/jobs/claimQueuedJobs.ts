import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ClaimQueuedJobsParameters = {
  /** the task whose queued jobs are taken (e.g. mint_send) */
  task: string
  /** the claiming worker's graphile-worker pool id: the jobs get it as locked_by */
  workerId: string
  limit: number
}

export type ClaimedJob = {
  jobId: bigint
  payload: unknown
  /** this attempt, 1-based (already counted, as graphile-worker counts one when it takes a job) */
  attempts: number
  maxAttempts: number
}

/**
 * Takes up to `limit` runnable jobs of one task for a batch, exactly as graphile-worker
 * 0.17.3's own get_job does (is_available, run_at <= now(), FOR UPDATE SKIP LOCKED,
 * attempts + 1, locked_by = the worker's pool id, locked_at = now()), so from then on a
 * claimed job IS a job held by this worker: no other worker takes it, and if this
 * process dies the stale-worker sweep (force_unlock_workers of its id) hands it back
 * like any job it was running, with the attempt counted. Jobs in a named queue are left
 * to graphile-worker (mintdesk adds none). The caller must finish every claimed job
 * (lib/jobs/finishClaimedJobs.ts) before its own job ends.
 */
export async function claimQueuedJobs(
  db: DbOrTx,
  { task, workerId, limit }: ClaimQueuedJobsParameters,
): Promise<ClaimedJob[]> {
  if (limit <= 0) return []
  const rows = await db.execute<{ id: string; payload: unknown; attempts: number; max_attempts: number }>(sql`
    with j as (
      select jobs.id
      from graphile_worker._private_jobs as jobs
      where jobs.is_available = true
        and jobs.run_at <= now()
        and jobs.job_queue_id is null
        and jobs.task_id = (select t.id from graphile_worker._private_tasks t where t.identifier = ${task})
      order by jobs.priority asc, jobs.run_at asc
      limit ${limit}
      for update skip locked
    )
    update graphile_worker._private_jobs as jobs
    set attempts = jobs.attempts + 1, locked_by = ${workerId}, locked_at = now()
    from j
    where jobs.id = j.id
    returning jobs.id::text as id, jobs.payload, jobs.attempts::int as attempts, jobs.max_attempts::int as max_attempts`)
  return rows.map((r) => ({
    jobId: BigInt(r.id),
    payload: r.payload,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
  }))
}
