import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type AddJobParameters, addJob } from '@/lib/jobs/addJob'
import { reviveDeadJob } from './reviveDeadJob'

export type EnsureJobParameters = AddJobParameters & {
  jobKey: string
  /** a dead job under this key gets fresh attempts instead of staying in the dead letters */
  revive?: boolean
}

export type EnsureJobReturnType = {
  jobId: bigint
  /**
   * added: there was none; exists: one is waiting or running (or dead, without revive); revived: a dead one runs again
   */
  action: 'added' | 'exists' | 'revived'
}

/**
 * Makes sure ONE job with this key exists, without disturbing it if it does.
 * graphile_worker.add_job with an existing key would replace a waiting job (fine) but,
 * for a running one, take its key away and set its attempts to the maximum, which turns
 * a later failure of that run into a false dead letter; so add only when there is none.
 * Callers serialise on the entity the key belongs to (the order row lock, or an
 * advisory lock for the singleton nonce health job).
 */
export async function ensureJob(db: DbOrTx, p: EnsureJobParameters): Promise<EnsureJobReturnType> {
  const rows = await db.execute<{ id: bigint; attempts: number; max_attempts: number; locked_at: string | null }>(sql`
    select id, attempts, max_attempts, locked_at from graphile_worker._private_jobs where key = ${p.jobKey} for update`)
  const existing = rows[0]
  if (!existing) return { ...(await addJob(db, p)), action: 'added' }
  const jobId = BigInt(existing.id)
  const dead = existing.locked_at === null && existing.attempts >= existing.max_attempts
  if (dead && p.revive) {
    const revived = await reviveDeadJob(db, {
      jobId,
      maxAttempts: p.maxAttempts ?? 5,
      task: p.task,
      orderId: p.orderId,
      actor: p.actor ?? 'worker',
      detail: p.detail ?? 'revived automatically',
    })
    if (revived) return { jobId, action: 'revived' }
  }
  return { jobId, action: 'exists' }
}
