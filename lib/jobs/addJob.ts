import type { DbOrTx } from '@/db/client'
import { addJobs } from './addJobs'

export type AddJobParameters = {
  task: string
  payload: Record<string, unknown>
  /** graphile-worker job_key: a second add with the same key replaces a waiting job */
  jobKey?: string
  maxAttempts?: number
  runAt?: Date
  /** graphile-worker queue: its jobs run one at a time across all workers (the notification lanes) */
  queueName?: string
  /** graphile-worker priority (lower runs first; 0 by default) */
  priority?: number
  /** graphile-worker flags: a worker may forbid jobs carrying one (e.g. the notification jobs' NOTIFY_JOB_FLAG) */
  flags?: string[]
  orderId?: string | null
  /** who enqueued it, for the timeline */
  actor?: string | null
  detail?: string | null
}

export type AddJobReturnType = { jobId: bigint }

/**
 * Adds a graphile-worker job inside the caller's transaction (the outbox: the business
 * rows and the job commit together or not at all), with its history row and its
 * 'enqueued' timeline event. WorkerUtils.addJob cannot join a transaction, so this
 * calls the SQL function graphile_worker.add_job directly. The one-job form of addJobs
 * (the one home of that SQL).
 */
export async function addJob(tx: DbOrTx, p: AddJobParameters): Promise<AddJobReturnType> {
  const { jobIds } = await addJobs(tx, [p])
  const jobId = jobIds[0]
  if (jobId === undefined) throw new Error(`graphile_worker.add_job returned no row for task ${p.task}`)
  return { jobId }
}
