import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { RecordJobEventParameters } from './recordJobEvent'

/**
 * Appends rows to the timeline (job_events) in one insert (a send batch writes one step of
 * each of its orders at once; recordJobEvent is the one-row form). Joins the caller's
 * transaction when given one. Detail and error are stored with URLs redacted (an RPC URL
 * carries its API key). The rows travel as ONE jsonb parameter (jsonb_to_recordset):
 * building a many-row VALUES list through the query builder cost the worker more CPU than
 * the insert itself (docs/decisions/034-round-trips-and-confirmer-runs.md).
 */
export async function recordJobEvents(db: DbOrTx, events: readonly RecordJobEventParameters[]): Promise<void> {
  if (events.length === 0) return
  const rows = events.map((p) => ({
    event: p.event,
    task: p.task,
    order_id: p.orderId ?? null,
    job_id: p.jobId == null ? null : String(p.jobId),
    attempt: p.attempt ?? null,
    detail: p.detail == null ? null : redactSecrets(p.detail),
    error: p.error == null ? null : redactSecrets(p.error),
    actor: p.actor ?? null,
    duration_ms: p.durationMs == null ? null : Math.round(p.durationMs),
    data: p.data ?? null,
  }))
  await db.execute(sql`
    insert into job_events (event, task, order_id, job_id, attempt, detail, error, actor, duration_ms, data)
    select r.event, r.task, r.order_id, r.job_id, r.attempt, r.detail, r.error, r.actor, r.duration_ms, r.data
    from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (
      event text, task text, order_id uuid, job_id bigint, attempt int, detail text, error text, actor text, duration_ms int, data jsonb
    )) with ordinality as r(event, task, order_id, job_id, attempt, detail, error, actor, duration_ms, data, n)
    order by r.n`)
}
