import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobIdArraySql } from './jobIdArraySql'

export type RescheduleJobsNowParameters = {
  jobIds: bigint[]
  /** the attempts they get again (their own max: a permanent error had lowered it) */
  maxAttempts: number
}

/**
 * Runs graphile-worker jobs again now with their attempts reset to 0: the one place that
 * calls the SQL function `reschedule_jobs(..., attempts := 0)` (WorkerUtils.rescheduleJobs
 * ignores `attempts: 0`). Returns the ids graphile-worker rescheduled; a job a worker
 * holds is left alone by graphile-worker and is missing from the result.
 */
export async function rescheduleJobsNow(
  db: DbOrTx,
  { jobIds, maxAttempts }: RescheduleJobsNowParameters,
): Promise<bigint[]> {
  if (jobIds.length === 0) return []
  const rows = await db.execute<{ id: string }>(sql`
    select id::text as id from graphile_worker.reschedule_jobs(
      ${jobIdArraySql(jobIds)},
      run_at := now(),
      attempts := 0,
      max_attempts := ${maxAttempts}::int
    )`)
  return rows.map((r) => BigInt(r.id))
}
