import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type IsJobReleasedParameters = { jobId: bigint }

/**
 * Whether graphile-worker has committed the end of a job's run: its row deleted (completed)
 * or unlocked (failed, to be retried or dead). Until then a job of a named queue still holds
 * its queue, and no worker can take the queue's next job.
 */
export async function isJobReleased(db: DbOrTx, { jobId }: IsJobReleasedParameters): Promise<boolean> {
  const rows = await db.execute<{ held: boolean }>(sql`
    select exists (select 1 from graphile_worker._private_jobs where id = ${jobId}::bigint and locked_at is not null) as held
  `)
  return rows[0]?.held === false
}
