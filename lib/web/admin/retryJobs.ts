import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'
import { type JobState, RETRYABLE_JOB_STATES, type RetryableJobState } from '@/lib/jobs/jobStates'
import { lockLiveJobs } from '@/lib/jobs/lockLiveJobs'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { rescheduleJobsNow } from '@/lib/jobs/rescheduleJobsNow'
import { lockSqsJobs } from '@/lib/web/queue/lockSqsJobs'
import { retrySqsJobs } from '@/lib/web/queue/retrySqsJobs'
import type { ApiRetriedJob, ApiRetryResult } from './apiTypes'
import { reopenFailedOrder } from './reopenFailedOrder'

/** One request retries at most this many jobs; a filter that matches more says `truncated`. */
export const MAX_RETRY_BATCH = 500

export type RetryJobsParameters = { actor: AdminActor } & (
  | { jobIds: readonly bigint[] }
  | { state: RetryableJobState; task?: string }
)

export type RetryJobsReturnType = ApiRetryResult

/**
 * Runs dead or retrying jobs again now with their attempts reset, in ONE transaction
 * per call: rescheduleJobsNow (attempts back to 0 and max_attempts back to the job's
 * own: a permanent error had lowered it), the history row back to
 * `queued`, a failed order back to `pending` (no signed transaction yet) or `submitted`
 * (the worker re-sends the stored bytes) with its failure reason cleared, a 'retried'
 * timeline event and an audit row per job, naming the admin.
 *
 * Jobs are read under a row lock first: a job a worker holds is skipped as `running`
 * (never touched), a job that is not dead or retrying as `not_retryable`, an unknown or
 * finished one as `not_found`. By filter, jobs another transaction holds are skipped.
 *
 * An SQS job (QUEUE_TRANSPORT=sqs, decision 021; never in graphile-worker's table) is
 * retried as the SQS dead-letter page retries it (lib/web/queue/retrySqsJobs.ts): a new
 * message of the next generation, every older one (the dead letter included) stale, so a
 * later retry from the dead-letter page is refused and nothing runs twice.
 */
export async function retryJobs(db: DbOrTx, p: RetryJobsParameters): Promise<RetryJobsReturnType> {
  return db.transaction(async (tx) => {
    const byFilter = !('jobIds' in p)
    const requested = 'jobIds' in p ? [...new Set(p.jobIds)].slice(0, MAX_RETRY_BATCH) : []
    const locked = await lockLiveJobs(
      tx,
      'jobIds' in p
        ? { jobIds: requested }
        : { state: p.state, task: p.task, limit: MAX_RETRY_BATCH + 1, skipLocked: true },
    )
    // the SQS jobs among the ids, or of the filter (after the graphile jobs, up to the batch's size)
    const graphileIds = new Set(locked.map((j) => j.jobId))
    const sqsLocked = await lockSqsJobs(
      tx,
      'jobIds' in p
        ? { jobIds: requested.filter((id) => !graphileIds.has(id)) }
        : {
            state: p.state,
            task: p.task,
            limit: Math.max(0, MAX_RETRY_BATCH + 1 - locked.length),
            skipLocked: true,
          },
    )
    const truncated = byFilter && locked.length + sqsLocked.length > MAX_RETRY_BATCH
    const candidates = locked.slice(0, MAX_RETRY_BATCH)
    const sqsCandidates = sqsLocked.slice(0, MAX_RETRY_BATCH - candidates.length)
    const sqs = await retrySqsJobs(tx, {
      jobs: sqsCandidates,
      retryable: RETRYABLE_JOB_STATES,
      via: 'jobs',
      bulk: byFilter || requested.length > 1,
      actor: p.actor,
    })

    const skipped: ApiRetryResult['skipped'] = [...sqs.skipped]
    const found = new Set([...candidates, ...sqsCandidates].map((j) => j.jobId))
    const missing = requested.filter((id) => !found.has(id))
    if (missing.length > 0) {
      const history = await tx.execute<{ job_id: bigint; state: string }>(
        sql`select job_id, state from job_records where job_id = any(${jobIdArraySql(missing)})`,
      )
      const stateOf = new Map(history.map((h) => [BigInt(h.job_id), h.state]))
      for (const id of missing) {
        const state = stateOf.get(id)
        skipped.push(
          state === undefined
            ? { jobId: id.toString(), reason: 'not_found', state: null }
            : // gone from graphile-worker's table: finished (done) or cancelled
              {
                jobId: id.toString(),
                reason: 'not_retryable',
                state: (state === 'cancelled' ? 'cancelled' : 'done') as JobState,
              },
        )
      }
    }
    const toRetry = candidates.filter((j) => {
      if (j.state === 'dead' || j.state === 'retrying') return true
      skipped.push({
        jobId: j.jobId.toString(),
        reason: j.state === 'running' ? 'running' : 'not_retryable',
        state: j.state,
      })
      return false
    })
    if (toRetry.length === 0) return { retried: sqs.retried, skipped, truncated }

    // attempts back to 0 and max_attempts back to the job's own (a permanent error lowered
    // it to the attempts made), one rescheduleJobsNow call per distinct max
    const byMax = new Map<number, bigint[]>()
    for (const j of toRetry) byMax.set(j.originalMaxAttempts, [...(byMax.get(j.originalMaxAttempts) ?? []), j.jobId])
    let rescheduledCount = 0
    for (const [maxAttempts, ids] of byMax) {
      rescheduledCount += (await rescheduleJobsNow(tx, { jobIds: ids, maxAttempts })).length
    }
    if (rescheduledCount !== toRetry.length) {
      // cannot happen while we hold the row locks of unlocked jobs; never commit half a retry
      throw new Error(`reschedule_jobs rescheduled ${rescheduledCount} of ${toRetry.length} jobs`)
    }

    const orderStatus = new Map<string, string | null>()
    for (const orderId of new Set(toRetry.flatMap((j) => (j.orderId ? [j.orderId] : [])))) {
      orderStatus.set(orderId, await reopenFailedOrder(tx, orderId))
    }

    const retried: ApiRetriedJob[] = []
    for (const job of toRetry) {
      const jobId = job.jobId.toString()
      await tx.execute(sql`
        insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error)
        values (${jobId}::bigint, ${job.task}, ${job.orderId}::uuid, 'queued', 0, ${job.originalMaxAttempts}, ${job.lastError})
        on conflict (job_id) do update set state = 'queued', attempts = 0, max_attempts = excluded.max_attempts,
          updated_at = now(), finished_at = null`)
      // a permanent error lowered max_attempts to the attempts made: the count before is of the job's own maximum
      const before = `was ${job.state} after ${job.attempts} of ${job.originalMaxAttempts} attempts`
      const why = job.maxAttempts < job.originalMaxAttempts ? ': a permanent error ended it at once' : ''
      const detail = `Retried by ${p.actor.email}: attempts reset to 0 of ${job.originalMaxAttempts} (${before}${why})`
      await recordJobEvent(tx, {
        event: 'retried',
        task: job.task,
        jobId: job.jobId,
        orderId: job.orderId,
        attempt: job.attempts,
        actor: p.actor.email,
        detail,
        data: { previousState: job.state, previousAttempts: job.attempts, bulk: byFilter || requested.length > 1 },
      })
      await recordAudit(tx, {
        actor: p.actor,
        action: 'job.retry',
        targetType: 'job',
        targetId: jobId,
        detail: {
          task: job.task,
          orderId: job.orderId,
          previousState: job.state,
          previousAttempts: job.attempts,
          maxAttempts: job.originalMaxAttempts,
          lastError: job.lastError,
          ...(byFilter ? { filter: { state: p.state, task: p.task ?? null } } : {}),
        },
      })
      retried.push({
        jobId,
        task: job.task,
        orderId: job.orderId,
        orderStatus: job.orderId ? (orderStatus.get(job.orderId) ?? null) : null,
      })
    }
    return { retried: [...retried, ...sqs.retried], skipped, truncated }
  })
}
