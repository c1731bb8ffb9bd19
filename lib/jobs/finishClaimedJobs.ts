import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'

export type FinishClaimedJobsParameters = {
  /** the claiming worker's pool id: a job no longer locked by it (unlocked as stale, taken over) is left alone */
  workerId: string
  /** removed from the queue, as graphile-worker's complete_job */
  done?: readonly bigint[]
  /**
   * unlocked with their error, to run again after exp(attempts) s, as graphile-worker's
   * fail_job; `permanent` first lowers max_attempts to the attempts made (endAttemptsNow),
   * so the job stays as a dead letter
   */
  failed?: readonly { jobId: bigint; message: string; permanent: boolean }[]
  /** handed back unrun: the claim's attempt given back, to run again in delayMs (a wait, not a failure) */
  deferred?: readonly { jobId: bigint; delayMs: number }[]
}

/**
 * Ends the jobs this worker claimed for a batch (lib/jobs/claimQueuedJobs.ts) with the SQL
 * graphile-worker 0.17.3 runs when a job it holds ends, each guarded by locked_by so a job
 * meanwhile handed to another worker is not touched. Three statements at most. Returns
 * the ids that were still ours.
 */
export async function finishClaimedJobs(
  db: DbOrTx,
  { workerId, done = [], failed = [], deferred = [] }: FinishClaimedJobsParameters,
): Promise<Set<bigint>> {
  const ours = new Set<bigint>()
  const note = (rows: { id: string }[]) => {
    for (const r of rows) ours.add(BigInt(r.id))
  }
  if (done.length > 0) {
    note(
      await db.execute<{ id: string }>(sql`
        delete from graphile_worker._private_jobs
        where id = any(${jobIdArraySql(done)}) and locked_by = ${workerId}
        returning id::text as id`),
    )
  }
  if (failed.length > 0) {
    const specs = JSON.stringify(
      failed.map((f) => ({ id: f.jobId.toString(), message: f.message, permanent: f.permanent })),
    )
    note(
      await db.execute<{ id: string }>(sql`
        update graphile_worker._private_jobs as jobs
        set last_error = el->>'message',
          max_attempts = case when (el->>'permanent')::boolean then least(jobs.max_attempts, jobs.attempts) else jobs.max_attempts end,
          run_at = greatest(now(), jobs.run_at) + (exp(least(jobs.attempts, 10)) * interval '1 second'),
          locked_by = null,
          locked_at = null
        from json_array_elements(${specs}::json) as els(el)
        where jobs.id = (el->>'id')::bigint and jobs.locked_by = ${workerId}
        returning jobs.id::text as id`),
    )
  }
  if (deferred.length > 0) {
    const specs = JSON.stringify(deferred.map((d) => ({ id: d.jobId.toString(), ms: d.delayMs })))
    note(
      await db.execute<{ id: string }>(sql`
        update graphile_worker._private_jobs as jobs
        set attempts = greatest(jobs.attempts - 1, 0),
          run_at = now() + make_interval(secs => (el->>'ms')::double precision / 1000),
          locked_by = null,
          locked_at = null
        from json_array_elements(${specs}::json) as els(el)
        where jobs.id = (el->>'id')::bigint and jobs.locked_by = ${workerId}
        returning jobs.id::text as id`),
    )
  }
  return ours
}
