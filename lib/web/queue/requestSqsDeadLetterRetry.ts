import { sql } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'
import type { JobState } from '@/lib/jobs/jobStates'
import type { ApiSqsRetryResult } from './apiTypes'
import { lockSqsJobs } from './lockSqsJobs'
import { retrySqsJobs } from './retrySqsJobs'

export type RequestSqsDeadLetterRetryParameters = {
  /** the messages to retry; `'all'`: every dead letter listed whose job still needs it */
  messageIds: string[] | 'all'
  actor: AdminActor
}

export type RequestSqsDeadLetterRetryReturnType = ApiSqsRetryResult

/** the states a dead letter's job may be retried from: dead, or left running or retrying by a worker that died on it */
const DEAD_LETTER_RETRYABLE = ['dead', 'retrying', 'running'] as const

/**
 * An admin's retry of SQS dead letters (decision 021), in one transaction: each message's
 * job is retried as every SQS job is (lib/web/queue/retrySqsJobs.ts: a new message of the
 * next generation through the relay, fresh attempts, the order reopened, audited as
 * job.retry); the dead letter itself is then stale and the worker's next scan drops it.
 * Refused (`not_dead`) when the job no longer needs the message: a message of an older
 * generation than its job's (retried since, on this page or the jobs page), or a job that
 * is done, cancelled, queued or waiting: so a job is never run twice from the two pages.
 * A message without a job (a body that does not parse) is stamped for the worker to move
 * back as it is. The web has no SQS rights: the worker's relay and scan do the sending.
 */
export async function requestSqsDeadLetterRetry(
  db: Db,
  p: RequestSqsDeadLetterRetryParameters,
): Promise<RequestSqsDeadLetterRetryReturnType> {
  if (p.messageIds !== 'all' && p.messageIds.length === 0) return { retried: [], skipped: [] }
  return db.transaction(async (tx) => {
    const wanted = p.messageIds === 'all' ? null : p.messageIds.slice(0, 500)
    const rows = await tx.execute<{
      message_id: string
      job_id: string | null
      order_id: string | null
      generation: number
      requested: boolean
    }>(sql`
      select message_id, job_id::text as job_id, order_id::text as order_id, generation,
        retry_requested_at is not null as requested
      from sqs_dead_letters
      where ${wanted ? sql`message_id in ${wanted}` : sql`true`}
      order by first_seen_at, message_id
      limit 500
      for update`)
    const retried: string[] = []
    const skipped: RequestSqsDeadLetterRetryReturnType['skipped'] = []
    for (const id of wanted ?? [])
      if (!rows.some((r) => r.message_id === id)) skipped.push({ messageId: id, reason: 'not_found' })

    // the jobs of the messages, under their locks (unfinished ones only: a finished job is absent)
    const jobIds = [...new Set(rows.flatMap((r) => (r.job_id ? [BigInt(r.job_id)] : [])))]
    const jobs = new Map((await lockSqsJobs(tx, { jobIds })).map((j) => [j.jobId.toString(), j]))
    const states = await jobStatesOf(tx, jobIds)
    const handled = new Set<string>()
    for (const r of rows) {
      if (r.requested) {
        if (wanted) skipped.push({ messageId: r.message_id, reason: 'already_requested' })
        continue
      }
      if (!r.job_id) {
        // nothing to retry it against: the worker moves it back as it is (its receives will say why)
        await tx.execute(sql`
          update sqs_dead_letters set retry_requested_at = now(), retry_requested_by = ${p.actor.email} where message_id = ${r.message_id}`)
        await recordAudit(tx, {
          actor: p.actor,
          action: 'job.retry',
          targetType: 'job',
          targetId: r.message_id,
          detail: { transport: 'sqs', via: 'dead_letters', messageId: r.message_id, orderId: r.order_id },
        })
        retried.push(r.message_id)
        continue
      }
      const job = jobs.get(r.job_id)
      const current = job !== undefined && Number(r.generation) >= job.generation && !handled.has(r.job_id)
      if (!current || !job || !(DEAD_LETTER_RETRYABLE as readonly string[]).includes(job.state)) {
        if (wanted)
          skipped.push({
            messageId: r.message_id,
            reason: 'not_dead',
            jobState: job?.state ?? states.get(r.job_id) ?? null,
          })
        continue
      }
      await retrySqsJobs(tx, {
        jobs: [job],
        retryable: DEAD_LETTER_RETRYABLE,
        via: 'dead_letters',
        bulk: wanted === null || wanted.length > 1,
        actor: p.actor,
      })
      handled.add(r.job_id)
      retried.push(r.message_id)
    }
    return { retried, skipped }
  })
}

/** the history states of jobs (a finished one says done or cancelled) */
async function jobStatesOf(tx: Tx, jobIds: readonly bigint[]): Promise<Map<string, JobState>> {
  if (jobIds.length === 0) return new Map()
  const rows = await tx.execute<{ job_id: string; state: JobState }>(sql`
    select job_id::text as job_id, state from job_records where job_id = any(${jobIdArraySql(jobIds)})`)
  return new Map(rows.map((r) => [r.job_id, r.state]))
}
