import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type EndAttemptsNowParameters = { jobId: bigint }

/**
 * For a permanent error: lowers the running job's max_attempts to the attempts it has
 * made, so when graphile-worker records the failure the job stays in its table as a
 * dead letter instead of being retried. job_records keeps the original max_attempts
 * (an admin retry restores it).
 */
export async function endAttemptsNow(db: DbOrTx, { jobId }: EndAttemptsNowParameters): Promise<void> {
  await db.execute(sql`update graphile_worker._private_jobs set max_attempts = attempts where id = ${jobId}::bigint`)
}
