import type { Db } from '@/db/client'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { setJobLastError } from '@/lib/jobs/setJobLastError'
import { type UnlockedJob, unlockStaleWorkers } from '@/lib/jobs/unlockStaleWorkers'
import { failOrderOfDeadJob } from '../db/failOrderOfDeadJob'
import { updateJobRecord } from '../db/updateJobRecord'
import type { WorkerLogger } from './logger'

export type SweepStaleWorkersParameters = {
  selfId: string
  staleAfterMs: number
  log: WorkerLogger
}

/**
 * Hands the jobs of silent workers to the living (invariant 5: a killed worker's job is
 * taken over in seconds, not after graphile-worker's 4-hour lock). Each freed job gets an
 * 'unlocked' event; one whose last attempt died with its worker is dead (attempts are
 * counted when a job is taken), with a 'dead' event and, for mint_send, a failed order.
 */
export async function sweepStaleWorkers(
  db: Db,
  { selfId, staleAfterMs, log }: SweepStaleWorkersParameters,
): Promise<UnlockedJob[]> {
  return db.transaction(async (tx) => {
    const { jobs, workerIds } = await unlockStaleWorkers(tx, { selfId, staleAfterMs })
    for (const job of jobs) {
      const orderId = orderIdIn(job.payload)
      const dead = job.attempts >= job.maxAttempts
      const silence = job.lastSeenAt ? `silent since ${job.lastSeenAt.toISOString()}` : 'never sent a heartbeat'
      const base = { task: job.task, orderId, jobId: job.jobId, attempt: job.attempts, actor: selfId }
      await recordJobEvent(tx, {
        ...base,
        event: 'unlocked',
        detail: `worker ${job.lockedBy} ${silence}: job released for another worker${job.takenOver ? ` (its key taken over by a newer job meanwhile: attempts put back to ${job.attempts})` : ''}`,
        data: { lockedBy: job.lockedBy },
      })
      const record = {
        jobId: job.jobId,
        task: job.task,
        orderId,
        payload: job.payload,
        attempts: job.attempts,
        maxAttempts: job.maxAttempts,
      }
      if (dead) {
        const reason = `worker ${job.lockedBy} died during the last attempt (${job.attempts} of ${job.maxAttempts})`
        // the dead letter keeps its error in graphile-worker's row too (force_unlock_workers writes none)
        await setJobLastError(tx, { jobId: job.jobId, error: reason })
        await updateJobRecord(tx, { ...record, state: 'dead', lastError: reason })
        await recordJobEvent(tx, { ...base, event: 'dead', detail: reason })
        await failOrderOfDeadJob(tx, {
          task: job.task,
          orderId,
          reason,
          code: 'attempts_exhausted',
          lastError: 'worker_lost',
        })
      } else {
        await updateJobRecord(tx, {
          ...record,
          state: 'retrying',
          lastError: `worker ${job.lockedBy} stopped heartbeating`,
        })
      }
    }
    if (jobs.length > 0)
      log.warn({ workerIds, jobs: jobs.map((j) => j.jobId.toString()) }, 'unlocked the jobs of stale workers')
    return jobs
  })
}

function orderIdIn(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || !('orderId' in payload)) return null
  return typeof payload.orderId === 'string' ? payload.orderId : null
}
