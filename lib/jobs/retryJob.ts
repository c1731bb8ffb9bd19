import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords, mintOrders } from '@/db/schema'
import { ConflictError, NotFoundError } from '@/lib/errors'
import { TASK } from './jobKeys'
import { reviveDeadJob } from './reviveDeadJob'

export type RetryJobParameters = {
  jobId: bigint
  /** the admin's email, for the timeline (the caller writes audit_log) */
  actor: string
}

export type RetryJobReturnType = { jobId: bigint; task: string; orderId: string | null }

/**
 * An admin retries a dead job, inside the caller's transaction (which also writes
 * audit_log): it gets its original number of attempts again and runs now ('retried'
 * event). For a mint_send the order goes from `failed` back to `pending` (the job
 * re-sends the stored transaction if one was signed, never a second one); for a
 * mint_confirm the order stays `submitted` and only its failure reason is cleared.
 * ConflictError unless the job is dead (attempts exhausted or a permanent error).
 */
export async function retryJob(db: DbOrTx, { jobId, actor }: RetryJobParameters): Promise<RetryJobReturnType> {
  const [record] = await db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId)).for('update')
  if (!record) throw new NotFoundError({ what: 'Job' })
  const revived = await reviveDeadJob(db, {
    jobId,
    maxAttempts: record.maxAttempts,
    task: record.task,
    orderId: record.orderId,
    actor,
    detail: 'retried by an admin',
  })
  if (!revived) throw new ConflictError('Only a dead job can be retried.')
  if (record.orderId && record.task === TASK.mintSend) {
    await db
      .update(mintOrders)
      .set({ status: 'pending', failureReason: null, updatedAt: new Date() })
      .where(and(eq(mintOrders.id, record.orderId), eq(mintOrders.status, 'failed')))
  } else if (record.orderId && record.task === TASK.mintConfirm) {
    await db.update(mintOrders).set({ failureReason: null, updatedAt: new Date() }).where(eq(mintOrders.id, record.orderId))
  }
  return { jobId, task: record.task, orderId: record.orderId }
}
