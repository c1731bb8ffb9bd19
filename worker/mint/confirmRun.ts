import type { WorkerLogger } from '../runtime/logger'
import type { TaskRun } from '../runtime/runTask'

/**
 * A run that confirms mints, as the confirm steps (worker/mint/*) see it: the signer's
 * signer_confirm (many orders per run) or an order's own order_confirm (one). Every
 * timeline event it writes names this task, job and attempt, and the order it is about.
 */
export type ConfirmRun = {
  task: string
  jobId: bigint
  attempt: number
  actor: string
  log: WorkerLogger
  /** throws JobAbortedError when the worker shuts down; called between resumable steps */
  checkpoint: (step: string) => void
}

/** The ConfirmRun of a task's run. */
export function confirmRunOf(task: string, job: TaskRun<unknown>): ConfirmRun {
  return { task, jobId: job.jobId, attempt: job.attempt, actor: job.actor, log: job.log, checkpoint: job.checkpoint }
}

/** The fields every timeline event of a confirm run carries, for one order. */
export function confirmEventOf(run: ConfirmRun, orderId: string) {
  return { task: run.task, orderId, jobId: run.jobId, attempt: run.attempt, actor: run.actor }
}
