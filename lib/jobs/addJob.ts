import type { DbOrTx } from '@/db/client'
import { addJobs } from './addJobs'

/** what carries a job (QUEUE_TRANSPORT): graphile-worker in Postgres, or the SQS outbox (mint_send only) */
export type QueueTransport = 'postgres' | 'sqs'

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
  /**
   * graphile-worker (default), or the SQS outbox row the worker's relay sends:
   * then no runAt, queueName, priority or flags, and the job key is left unused (SQS has none)
   */
  transport?: QueueTransport
}

export type AddJobReturnType = { jobId: bigint }

/**
 * Adds a job inside the caller's transaction (the outbox: the business rows and the job
 * commit together or not at all), with its history row and its 'enqueued' timeline event,
 * through the one enqueue, the SQL function public.enqueue_job (db/functions/enqueue_job.sql;
 * WorkerUtils.addJob cannot join a transaction). The one-job form of addJobs.
 *
 * @example
 * const { jobId } = await addJob(tx, { task: TASK.reserveCheck, payload: {}, runAt: new Date(Date.now() + 60_000) })
 */
export async function addJob(tx: DbOrTx, p: AddJobParameters): Promise<AddJobReturnType> {
  const { jobIds } = await addJobs(tx, [p])
  const jobId = jobIds[0]
  if (jobId === undefined) throw new Error(`enqueue_job added no job for task ${p.task}`)
  return { jobId }
}
