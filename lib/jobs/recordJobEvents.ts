import type { DbOrTx } from '@/db/client'
import { jobEvents } from '@/db/schema'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { RecordJobEventParameters } from './recordJobEvent'

/**
 * recordJobEvent for many rows in one insert (a send batch writes one step of each of
 * its orders at once): same columns, same redaction, the timeline reads them alike.
 */
export async function recordJobEvents(db: DbOrTx, events: readonly RecordJobEventParameters[]): Promise<void> {
  if (events.length === 0) return
  await db.insert(jobEvents).values(
    events.map((p) => ({
      event: p.event,
      task: p.task,
      orderId: p.orderId ?? null,
      jobId: p.jobId == null ? null : BigInt(p.jobId),
      attempt: p.attempt ?? null,
      detail: p.detail == null ? null : redactSecrets(p.detail),
      error: p.error == null ? null : redactSecrets(p.error),
      actor: p.actor ?? null,
      durationMs: p.durationMs == null ? null : Math.round(p.durationMs),
      data: p.data ?? null,
    })),
  )
}
