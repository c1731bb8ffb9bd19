import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import type { LiveJobState } from '@/lib/jobs/jobStates'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import type { ApiRetriedJob, ApiRetryResult } from '@/lib/web/admin/apiTypes'
import { reopenFailedOrder } from '@/lib/web/admin/reopenFailedOrder'
import type { LockedSqsJob } from './lockSqsJobs'

export type RetrySqsJobsParameters = {
  /** the jobs, locked by lockSqsJobs in the caller's transaction */
  jobs: readonly LockedSqsJob[]
  /** the states a retry applies to here; any other is skipped (running: `running`, else `not_retryable`) */
  retryable: readonly LiveJobState[]
  /** where the admin asked: the jobs page or the SQS dead-letter page (the timeline and the audit say it) */
  via: 'jobs' | 'dead_letters'
  /** one job of several (a bulk retry) */
  bulk: boolean
  actor: AdminActor
}

/**
 * THE retry of SQS jobs (decision 021), wherever an admin asks for it (the jobs page's
 * retry, lib/web/admin/retryJobs.ts, and the dead-letter page's,
 * requestSqsDeadLetterRetry.ts), in the caller's transaction: the job's outbox row gets the
 * next generation and is handed to the relay again (a fresh message, with full receives,
 * saying that generation), its history is `queued` with attempts 0, a failed order goes back
 * to pending or submitted with its bars, a 'retried' event and an audit row (job.retry). Every
 * older message of the job, in the queue or in the dead-letter queue, is stale from the
 * commit on: the consumer deletes it unrun, the DLQ scan drops it, the dead-letter page
 * refuses it. So one job has one live message, and a job retried on one page is never run
 * again from the other. The web has no SQS rights: the worker's relay sends the message.
 */
export async function retrySqsJobs(
  tx: Tx,
  { jobs, retryable, via, bulk, actor }: RetrySqsJobsParameters,
): Promise<Pick<ApiRetryResult, 'retried' | 'skipped'>> {
  const retried: ApiRetriedJob[] = []
  const skipped: ApiRetryResult['skipped'] = []
  for (const job of jobs) {
    const jobId = job.jobId.toString()
    if (!retryable.includes(job.state)) {
      skipped.push({ jobId, reason: job.state === 'running' ? 'running' : 'not_retryable', state: job.state })
      continue
    }
    const generation = job.generation + 1
    await tx.execute(sql`
      update sqs_outbox set generation = ${generation}, sent_at = null, last_send_error = null
      where job_id = ${jobId}::bigint`)
    await tx.execute(sql`
      update job_records set state = 'queued', attempts = 0, last_error = null, finished_at = null, updated_at = now()
      where job_id = ${jobId}::bigint`)
    const orderStatus = job.orderId ? await reopenFailedOrder(tx, job.orderId) : null
    const where = via === 'jobs' ? 'the jobs page' : 'the SQS dead-letter page'
    await recordJobEvent(tx, {
      event: 'retried',
      task: job.task,
      jobId: job.jobId,
      orderId: job.orderId,
      attempt: job.attempts,
      actor: actor.email,
      detail: `Retried by ${actor.email} from ${where}: attempts reset to 0 of ${job.maxAttempts} (was ${job.state} after ${job.attempts} of ${job.maxAttempts} attempts); a new SQS message (generation ${generation}), older ones dropped`,
      data: { previousState: job.state, previousAttempts: job.attempts, bulk, transport: 'sqs', via, generation },
    })
    await recordAudit(tx, {
      actor,
      action: 'job.retry',
      targetType: 'job',
      targetId: jobId,
      detail: {
        transport: 'sqs',
        via,
        task: job.task,
        orderId: job.orderId,
        previousState: job.state,
        previousAttempts: job.attempts,
        maxAttempts: job.maxAttempts,
        lastError: job.lastError,
        generation,
      },
    })
    retried.push({ jobId, task: job.task, orderId: job.orderId, orderStatus })
  }
  return { retried, skipped }
}
