import type { Db } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { RESERVE_CHECK_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { lockReserveCheck } from '../db/lockReserveCheck'
import { RESERVE_CHECK_MAX_ATTEMPTS } from '../tasks/reserveCheck'

export type EnsureReserveCheckJobParameters = { actor: string }

/**
 * Every worker, on every heartbeat, makes sure the one reserve_check job exists (and
 * revives it if it died), so the reconciliation survives any worker and any failure.
 */
export async function ensureReserveCheckJob(
  db: Db,
  { actor }: EnsureReserveCheckJobParameters,
): Promise<EnsureJobReturnType> {
  return db.transaction(async (tx) => {
    await lockReserveCheck(tx)
    return ensureJob(tx, {
      task: TASK.reserveCheck,
      jobKey: RESERVE_CHECK_JOB_KEY,
      payload: {},
      maxAttempts: RESERVE_CHECK_MAX_ATTEMPTS,
      actor,
      revive: true,
    })
  })
}
