import type { DbOrTx } from '@/db/client'
import { workers } from '@/db/schema'

export type UpsertWorkerParameters = { id: string; host: string; pid: number }

/** This process's heartbeat row; id = its graphile-worker pool id (the `locked_by` of its jobs). */
export async function upsertWorker(db: DbOrTx, p: UpsertWorkerParameters): Promise<void> {
  const now = new Date()
  await db
    .insert(workers)
    .values({ id: p.id, host: p.host, pid: p.pid, startedAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: workers.id, set: { lastSeenAt: now, stoppedAt: null } })
}
