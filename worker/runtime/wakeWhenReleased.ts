import type { Db } from '@/db/client'
import { isJobReleased } from '@/lib/jobs/isJobReleased'
import { sleep } from '@/lib/time/sleep'
import type { WorkerLogger } from './logger'

/** the waits between two looks at the job's row (ms): about 6 s in all, then the poll takes over */
const LOOK_AFTER_MS = [10, 25, 50, 100, 200, 400, 800, 1600, 3200]

export type WakeWhenReleasedParameters = {
  jobId: bigint
  /** takes the next job; never called once stopped() */
  wake: () => void
  stopped: () => boolean
  log: WorkerLogger
}

/**
 * Wakes this process's pool once a job of a named queue (a notification lane) has let go
 * of its queue. graphile-worker ends a job in a batched completion whose commit comes after
 * the worker has already looked for its next job and found the lane locked; it announces no
 * commit, so this looks at the job's row until the release is there. Without it, each next
 * job of a lane would wait for the poll (WORKER_POLL_MS per email of one address).
 */
export async function wakeWhenReleased(
  db: Db,
  { jobId, wake, stopped, log }: WakeWhenReleasedParameters,
): Promise<void> {
  try {
    for (const ms of LOOK_AFTER_MS) {
      await sleep({ ms, unref: true })
      if (stopped()) return
      if (await isJobReleased(db, { jobId })) return wake()
    }
  } catch (error) {
    if (!stopped())
      log.debug({ err: error, jobId: jobId.toString() }, 'lane wake-up not delivered: the poll takes the next job')
  }
}
