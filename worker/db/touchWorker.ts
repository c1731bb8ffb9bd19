import { and, eq, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { workers } from '@/db/schema'

export type TouchWorkerParameters = { id: string }

/**
 * One heartbeat. Returns false when the row was marked stopped by another worker's
 * sweep (this process was silent too long and its jobs were handed to others): the
 * caller must stop at once (fencing).
 */
export async function touchWorker(db: DbOrTx, { id }: TouchWorkerParameters): Promise<boolean> {
  const rows = await db
    .update(workers)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(workers.id, id), isNull(workers.stoppedAt)))
    .returning({ id: workers.id })
  return rows.length > 0
}
