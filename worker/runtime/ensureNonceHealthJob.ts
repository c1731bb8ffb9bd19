import type { Db } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { NONCE_HEALTH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { lockNonceHealth } from '../db/lockNonceHealth'
import { NONCE_HEALTH_MAX_ATTEMPTS } from '../tasks/nonceHealth'

export type EnsureNonceHealthJobParameters = { actor: string }

/**
 * Every worker, on every heartbeat, makes sure the one nonce_health job exists (and
 * revives it if it died), so the periodic check survives any worker and any failure.
 */
export async function ensureNonceHealthJob(
  db: Db,
  { actor }: EnsureNonceHealthJobParameters,
): Promise<EnsureJobReturnType> {
  return db.transaction(async (tx) => {
    await lockNonceHealth(tx)
    return ensureJob(tx, {
      task: TASK.nonceHealth,
      jobKey: NONCE_HEALTH_JOB_KEY,
      payload: {},
      maxAttempts: NONCE_HEALTH_MAX_ATTEMPTS,
      actor,
      revive: true,
    })
  })
}
