import type { DbOrTx } from '@/db/client'
import { jobEvents } from '@/db/schema'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { RecordJobEventParameters } from './recordJobEvent'

/**
 * Appends rows to the timeline (job_events) in one insert (a send batch writes one step of
 * each of its orders at once; recordJobEvent is the one-row form). Joins the caller's
 * transaction when given one. Detail and error are stored with URLs redacted (an RPC URL
 * carries its API key).
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
