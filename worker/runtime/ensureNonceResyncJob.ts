import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { NONCE_RESYNC_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { NONCE_RESYNC_MAX_ATTEMPTS } from '../tasks/nonceResync'

export type EnsureNonceResyncJobParameters = { actor: string }

/**
 * Every worker, on every heartbeat, makes sure the one periodic nonce_resync job exists (and revives it if it
 * died), so a restore's gap is noticed whichever worker is alive.
 */
export async function ensureNonceResyncJob(
  db: Db,
  { actor }: EnsureNonceResyncJobParameters,
): Promise<EnsureJobReturnType> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mintdesk:nonce_resync'))`)
    return ensureJob(tx, {
      task: TASK.nonceResync,
      jobKey: NONCE_RESYNC_JOB_KEY,
      payload: {},
      maxAttempts: NONCE_RESYNC_MAX_ATTEMPTS,
      actor,
      revive: true,
    })
  })
}
