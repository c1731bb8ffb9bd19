import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type DetachRunningJobKeyParameters = {
  jobId: bigint
  /** the attempt this run is (graphile-worker's attempts when it took the job) */
  attempt: number
}

/**
 * For a coalescing job (one job key for many wake-ups, e.g. notify_dispatch): the running
 * job lets go of its key, so a wake-up while it runs adds a fresh waiting job instead of
 * graphile-worker 0.17's take-over of a running job's key, which also sets its attempts to
 * the maximum (a later failure of this run would be a false dead letter, see ensureJob).
 * If a take-over already happened, the attempts are put back to this run's. A new job
 * added under the key starts only after its adder commits, so it sees what woke it.
 */
export async function detachRunningJobKey(
  db: DbOrTx,
  { jobId, attempt }: DetachRunningJobKeyParameters,
): Promise<void> {
  await db.execute(sql`
    update graphile_worker._private_jobs set key = null, attempts = least(attempts, ${attempt}::smallint), updated_at = now()
    where id = ${jobId}::bigint and locked_at is not null and (key is not null or attempts > ${attempt}::smallint)`)
}
