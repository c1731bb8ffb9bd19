import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'
import type { LiveJobState } from '@/lib/jobs/jobStates'
import type { LockedJob } from '@/lib/jobs/lockLiveJobs'

/**
 * An SQS job (decision 021) under its locks: what lockLiveJobs says of a graphile job, and its
 * outbox row's generation.
 */
export type LockedSqsJob = LockedJob & { generation: number }

export type LockSqsJobsParameters = (
  | {
      /** these jobs... */
      jobIds: readonly bigint[]
      /** ...and every unfinished SQS job of this order */
      orderId?: string | null
    }
  | {
      /** every SQS job in this state, oldest first */
      state: 'dead' | 'retrying'
      task?: string
    }
) & {
  limit?: number
  /** skip rows another transaction holds (bulk by filter) instead of waiting for them */
  skipLocked?: boolean
}

/**
 * Reads SQS jobs (an sqs_outbox row; they are never in graphile-worker's table) under a
 * row lock of their history row and their outbox row (FOR UPDATE, in id order: the order
 * lockLiveJobs keeps), unfinished ones only (not done, not cancelled), in the state their
 * history says. The consumer takes the same history lock as it marks a job running
 * (worker/sqs/sqsMessageHandler.ts), so the state read here is the state the caller acts
 * on. Call inside a transaction.
 */
export async function lockSqsJobs(tx: DbOrTx, p: LockSqsJobsParameters): Promise<LockedSqsJob[]> {
  const rows = await tx.execute<{
    job_id: string
    task: string
    state: LiveJobState
    attempts: number
    max_attempts: number
    last_error: string | null
    order_id: string | null
    generation: number
  }>(sql`
    select r.job_id::text as job_id, r.task, r.state, r.attempts, r.max_attempts, r.last_error,
      coalesce(r.order_id, x.order_id)::text as order_id, x.generation
    from job_records r
    join sqs_outbox x on x.job_id = r.job_id
    where r.state not in ('done', 'cancelled') and ${whereOf(p)}
    order by r.job_id
    ${p.limit !== undefined ? sql`limit ${p.limit}` : sql``}
    for update of r, x ${p.skipLocked ? sql`skip locked` : sql``}`)
  return rows.map((r) => ({
    jobId: BigInt(r.job_id),
    task: r.task,
    state: r.state,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    originalMaxAttempts: Number(r.max_attempts),
    lastError: r.last_error,
    lockedBy: null,
    orderId: r.order_id,
    generation: Number(r.generation),
  }))
}

function whereOf(p: LockSqsJobsParameters): SQL {
  if ('jobIds' in p) {
    const ids = sql`r.job_id = any(${jobIdArraySql(p.jobIds)})`
    return p.orderId ? sql`(${ids} or x.order_id = ${p.orderId}::uuid)` : ids
  }
  return p.task ? sql`r.state = ${p.state} and r.task = ${p.task}` : sql`r.state = ${p.state}`
}
