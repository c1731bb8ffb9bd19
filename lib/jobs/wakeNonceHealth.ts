import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { NONCE_HEALTH_JOB_KEY } from '@/lib/jobs/jobKeys'

/**
 * Runs the nonce health job now instead of at its next period, when it is waiting (not
 * held by a worker, attempts left). The web's cancel calls it in its transaction: the
 * order's nonce is released and filled by the worker's nonce health check, in the
 * worker's own transaction, since the web may not write nonces (invariant 7).
 */
export async function wakeNonceHealth(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    select 1 from graphile_worker.reschedule_jobs(
      array(select id from graphile_worker._private_jobs where key = ${NONCE_HEALTH_JOB_KEY} and locked_at is null and attempts < max_attempts),
      run_at := now()
    )`)
}
