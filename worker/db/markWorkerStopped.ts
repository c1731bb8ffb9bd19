import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { workers } from '@/db/schema'

export type MarkWorkerStoppedParameters = { id: string }

/** A clean shutdown: the row stays, for the admin's worker list. */
export async function markWorkerStopped(db: DbOrTx, { id }: MarkWorkerStoppedParameters): Promise<void> {
  await db.update(workers).set({ stoppedAt: sql`now()`, lastSeenAt: sql`now()` }).where(eq(workers.id, id))
}
