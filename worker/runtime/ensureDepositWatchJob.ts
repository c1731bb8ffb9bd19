import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { DEPOSIT_WATCH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { DEPOSIT_WATCH_MAX_ATTEMPTS } from '../tasks/depositWatch'

export type EnsureDepositWatchJobParameters = { actor: string }

/** Every worker, on every heartbeat, makes sure the one deposit_watch job exists (and revives it if it died). */
export async function ensureDepositWatchJob(
  db: Db,
  { actor }: EnsureDepositWatchJobParameters,
): Promise<EnsureJobReturnType> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mintdesk:deposit_watch'))`)
    return ensureJob(tx, {
      task: TASK.depositWatch,
      jobKey: DEPOSIT_WATCH_JOB_KEY,
      payload: {},
      maxAttempts: DEPOSIT_WATCH_MAX_ATTEMPTS,
      actor,
      revive: true,
    })
  })
}
