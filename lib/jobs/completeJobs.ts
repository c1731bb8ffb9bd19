import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'

export type CompleteJobsParameters = { jobIds: readonly bigint[] }

/**
 * Takes jobs out of graphile-worker's queue for good, with its SQL function
 * `complete_jobs(bigint[])` (a cancel: mintdesk's history keeps the record). Returns the
 * ids graphile-worker removed; a job a worker holds is left alone by graphile-worker and
 * is missing from the result.
 */
export async function completeJobs(db: DbOrTx, { jobIds }: CompleteJobsParameters): Promise<bigint[]> {
  if (jobIds.length === 0) return []
  const rows = await db.execute<{ id: string }>(sql`
    select id::text as id from graphile_worker.complete_jobs(${jobIdArraySql(jobIds)})`)
  return rows.map((r) => BigInt(r.id))
}
