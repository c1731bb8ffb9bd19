import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords } from '@/db/schema'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { UpdateJobRecordParameters } from './updateJobRecord'

/** updateJobRecord for many jobs in one statement (the jobs a send batch claimed and finished). */
export async function updateJobRecords(db: DbOrTx, records: readonly UpdateJobRecordParameters[]): Promise<void> {
  if (records.length === 0) return
  const now = new Date()
  await db
    .insert(jobRecords)
    .values(
      records.map((p) => {
        const finished = p.state === 'done' || p.state === 'dead' || p.state === 'cancelled'
        return {
          jobId: p.jobId,
          task: p.task,
          orderId: p.orderId,
          state: p.state,
          attempts: p.attempts,
          maxAttempts: p.maxAttempts,
          lastError: p.lastError == null ? null : redactSecrets(p.lastError),
          payload: p.payload as Record<string, unknown>, // jsonb column; the payload is the job's JSON
          finishedAt: finished ? now : null,
        }
      }),
    )
    .onConflictDoUpdate({
      target: jobRecords.jobId,
      set: {
        state: sql`excluded.state`,
        attempts: sql`excluded.attempts`,
        lastError: sql`excluded.last_error`,
        finishedAt: sql`excluded.finished_at`,
        updatedAt: now,
        orderId: sql`coalesce(${jobRecords.orderId}, excluded.order_id)`,
      },
    })
}
