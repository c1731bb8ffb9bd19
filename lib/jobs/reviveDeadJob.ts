import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords } from '@/db/schema'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { rescheduleJobsNow } from '@/lib/jobs/rescheduleJobsNow'

export type ReviveDeadJobParameters = {
  jobId: bigint
  /** the attempts it gets again (its original max_attempts: a permanent error lowered it) */
  maxAttempts: number
  task: string
  orderId?: string | null
  actor: string
  detail?: string | null
}

/**
 * Gives a dead job (attempts = max_attempts, not locked) a fresh set of attempts, to run
 * now (rescheduleJobsNow). Returns false (and changes nothing)
 * when the job is not there, is running, or still has attempts left.
 */
export async function reviveDeadJob(db: DbOrTx, p: ReviveDeadJobParameters): Promise<boolean> {
  const dead = await db.execute<{ id: bigint }>(sql`
    select id from graphile_worker._private_jobs
    where id = ${p.jobId}::bigint and locked_at is null and attempts >= max_attempts
    for update`)
  if (dead.length === 0) return false
  await rescheduleJobsNow(db, { jobIds: [p.jobId], maxAttempts: p.maxAttempts })
  await db
    .update(jobRecords)
    .set({
      state: 'queued',
      attempts: 0,
      maxAttempts: p.maxAttempts,
      lastError: null,
      finishedAt: null,
      updatedAt: new Date(),
    })
    .where(eq(jobRecords.jobId, p.jobId))
  await recordJobEvent(db, {
    event: 'retried',
    task: p.task,
    orderId: p.orderId,
    jobId: p.jobId,
    actor: p.actor,
    detail: p.detail ?? null,
  })
  return true
}
