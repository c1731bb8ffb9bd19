import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type DeferQueuedJobsParameters = { task: string; delayMs: number }

/**
 * Moves the run time of every waiting, runnable job of a task to now + delayMs, in one
 * statement, keeping their order (no attempt touched, no lock taken from anybody). Used
 * when every signer is at its in-flight bound: the send queue waits as a whole instead
 * of each of its jobs being taken, found blocked and handed over one by one (which would
 * also keep the confirm side's jobs from their slots). Returns how many moved.
 */
export async function deferQueuedJobs(db: DbOrTx, { task, delayMs }: DeferQueuedJobsParameters): Promise<number> {
  const rows = await db.execute(sql`
    update graphile_worker._private_jobs as jobs
    set run_at = now() + make_interval(secs => ${delayMs}::double precision / 1000)
    where jobs.is_available = true
      and jobs.run_at <= now()
      and jobs.job_queue_id is null
      and jobs.task_id = (select t.id from graphile_worker._private_tasks t where t.identifier = ${task})
    returning jobs.id`)
  return rows.length
}
