import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type SetJobLastErrorParameters = { jobId: bigint; error: string }

/**
 * Writes a job's last error in graphile-worker's own row (what
 * the dead letters list shows), where nothing else wrote one.
 */
export async function setJobLastError(db: DbOrTx, { jobId, error }: SetJobLastErrorParameters): Promise<void> {
  await db.execute(
    sql`update graphile_worker._private_jobs set last_error = ${error} where id = ${jobId}::bigint and last_error is null`,
  )
}
