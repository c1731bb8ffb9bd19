import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'
import { mintSendJobKey, orderConfirmJobKey } from '@/lib/jobs/jobKeys'
import { deadJobSql, liveStateSql, retryingJobSql } from '@/lib/jobs/liveStateSql'
import { payloadOrderIdSql } from '@/lib/jobs/payloadOrderIdSql'
import type { LiveJobState } from './jobStates'

export type LockedJob = {
  jobId: bigint
  task: string
  state: LiveJobState
  attempts: number
  /** graphile-worker's max_attempts now (a permanent error lowers it to the attempts made) */
  maxAttempts: number
  /** the job's own max_attempts, kept in job_records: what a retry gives back */
  originalMaxAttempts: number
  lastError: string | null
  lockedBy: string | null
  orderId: string | null
}

export type LockLiveJobsParameters = (
  | {
      /** these jobs... */
      jobIds: readonly bigint[]
      /** ...and every live job of this order (by history row, payload or job key) */
      orderId?: string | null
    }
  | {
      /** every job in this state, oldest first */
      state: 'dead' | 'retrying'
      task?: string
    }
) & {
  limit?: number
  /** skip rows another transaction holds (bulk by filter) instead of waiting for them */
  skipLocked?: boolean
}

/**
 * Reads graphile-worker's live jobs under a row lock (FOR UPDATE), in id order so two
 * admins never deadlock each other. While the lock is held no worker can take the job
 * (graphile-worker's get_job skips locked rows), so the state read here is the state
 * the caller acts on. A job a worker already holds shows `running` (locked_at set): the
 * callers refuse to touch it. Call inside a transaction.
 */
export async function lockLiveJobs(tx: DbOrTx, p: LockLiveJobsParameters): Promise<LockedJob[]> {
  const rows = await tx.execute<{
    job_id: bigint
    task: string
    state: LiveJobState
    attempts: number
    max_attempts: number
    original_max_attempts: number
    last_error: string | null
    locked_by: string | null
    order_id: string | null
  }>(sql`
    select j.id as job_id, t.identifier as task, ${liveStateSql('j')} as state,
      j.attempts::int as attempts, j.max_attempts::int as max_attempts,
      greatest(coalesce(r.max_attempts, j.max_attempts), j.max_attempts)::int as original_max_attempts, j.last_error, j.locked_by,
      coalesce(r.order_id, ${payloadOrderIdSql('j')})::text as order_id
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    left join job_records r on r.job_id = j.id
    where ${whereOf(p)}
    order by j.id
    ${p.limit !== undefined ? sql`limit ${p.limit}` : sql``}
    for update of j ${p.skipLocked ? sql`skip locked` : sql``}`)
  return rows.map((r) => ({
    jobId: BigInt(r.job_id),
    task: r.task,
    state: r.state,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    originalMaxAttempts: Number(r.original_max_attempts),
    lastError: r.last_error,
    lockedBy: r.locked_by,
    orderId: r.order_id,
  }))
}

/** The condition on `j` (_private_jobs), `t` (_private_tasks) and `r` (job_records). */
function whereOf(p: LockLiveJobsParameters): SQL {
  if ('jobIds' in p) {
    const ids = sql`j.id = any(${jobIdArraySql(p.jobIds)})`
    if (!p.orderId) return ids
    return sql`(${ids} or r.order_id = ${p.orderId}::uuid or (j.payload->>'orderId') = ${p.orderId}
      or j.key in (${mintSendJobKey(p.orderId)}, ${orderConfirmJobKey(p.orderId)}))`
  }
  const state = p.state === 'dead' ? deadJobSql('j') : retryingJobSql('j')
  return p.task ? sql`${state} and t.identifier = ${p.task}` : state
}
