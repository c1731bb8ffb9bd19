import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords } from '@/db/schema'
import { redactSecrets } from '@/lib/errors/redactSecrets'

export type JobRecordState = 'queued' | 'scheduled' | 'running' | 'retrying' | 'dead' | 'done' | 'cancelled'

export type UpdateJobRecordParameters = {
  jobId: bigint
  task: string
  orderId: string | null
  payload: unknown
  state: JobRecordState
  attempts: number
  maxAttempts: number
  lastError?: string | null
}

/**
 * The job's row in job_records (kept after graphile-worker deletes the job): state,
 * attempts and last error (URLs redacted: an RPC URL carries its API key). Created here if
 * the job was added without addJob.
 */
export async function updateJobRecord(db: DbOrTx, p: UpdateJobRecordParameters): Promise<void> {
  const finished = p.state === 'done' || p.state === 'dead' || p.state === 'cancelled'
  const now = new Date()
  const lastError = p.lastError == null ? p.lastError : redactSecrets(p.lastError)
  await db
    .insert(jobRecords)
    .values({
      jobId: p.jobId,
      task: p.task,
      orderId: p.orderId,
      state: p.state,
      attempts: p.attempts,
      maxAttempts: p.maxAttempts,
      lastError: lastError ?? null,
      payload: p.payload as Record<string, unknown>, // jsonb column; the payload is the job's JSON
      finishedAt: finished ? now : null,
    })
    .onConflictDoUpdate({
      target: jobRecords.jobId,
      set: {
        // today's name: a job queued under a task's old name (TASKS_RENAMED) is listed under the task that runs it
        task: p.task,
        state: p.state,
        attempts: p.attempts,
        ...(lastError !== undefined ? { lastError } : {}),
        finishedAt: finished ? now : null,
        updatedAt: now,
        orderId: sql`coalesce(${jobRecords.orderId}, excluded.order_id)`,
      },
    })
}
