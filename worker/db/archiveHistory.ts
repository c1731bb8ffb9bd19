import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { HOUSEKEEPING_TASKS } from '@/lib/jobs/jobKeys'

export type ArchiveHistoryParameters = {
  /** detail older than this many months moves (RETENTION_MONTHS); 0 moves nothing */
  months: number
  /** rows of each kind per statement */
  batch?: number
  /** statements at most in one pass: a pass stays bounded however much is due, the next heartbeat goes on */
  maxBatches?: number
  now?: Date
}

export type ArchiveHistoryReturnType = {
  jobEvents: number
  jobRecords: number
  webhookDeliveries: number
  webhookAttempts: number
}

export const ARCHIVE_BATCH = 5_000
export const ARCHIVE_MAX_BATCHES = 20

/**
 * One bounded pass of the history retention (docs/decisions/066-a-year-of-history.md): public.archive_history in
 * batches until a batch moves nothing or `maxBatches` ran, each batch its own transaction. Moves the finished
 * housekeeping jobs (HOUSEKEEPING_TASKS) with no order, their timeline events, and the ended webhook deliveries with
 * their attempts, older than `months`, into the archive tables; the audit log and every order's timeline stay.
 * Returns what moved; a second pass right after moves nothing.
 *
 * ```ts
 * await archiveHistory(db, { months: 12 })
 * ```
 */
export async function archiveHistory(db: Db, p: ArchiveHistoryParameters): Promise<ArchiveHistoryReturnType> {
  const total: ArchiveHistoryReturnType = { jobEvents: 0, jobRecords: 0, webhookDeliveries: 0, webhookAttempts: 0 }
  if (p.months <= 0) return total
  const before = new Date(p.now ?? new Date())
  before.setUTCMonth(before.getUTCMonth() - p.months)
  const tasks = sql`array[${sql.join(
    HOUSEKEEPING_TASKS.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`
  for (let i = 0; i < (p.maxBatches ?? ARCHIVE_MAX_BATCHES); i++) {
    const [row] = await db.execute<{ moved: ArchiveHistoryReturnType }>(
      sql`select public.archive_history(p_before => ${before.toISOString()}::timestamptz, p_tasks => ${tasks},
        p_batch => ${p.batch ?? ARCHIVE_BATCH}) as moved`,
    )
    const moved = row?.moved ?? { jobEvents: 0, jobRecords: 0, webhookDeliveries: 0, webhookAttempts: 0 }
    total.jobEvents += moved.jobEvents
    total.jobRecords += moved.jobRecords
    total.webhookDeliveries += moved.webhookDeliveries
    total.webhookAttempts += moved.webhookAttempts
    if (moved.jobEvents + moved.jobRecords + moved.webhookDeliveries + moved.webhookAttempts === 0) break
  }
  return total
}
