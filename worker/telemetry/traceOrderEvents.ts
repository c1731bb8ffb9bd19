import type { Span } from '@opentelemetry/api'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { contextOfTraceparent } from '@/lib/telemetry/traceparent'
import { tracer } from '@/lib/telemetry/withSpan'

/** the per-order steps of a job serving many orders that become spans of each order's trace */
const ORDER_STEPS = ['mined', 'confirmed', 'reorged', 'replaced', 'rebroadcast', 'reverted', 'broadcast', 'signed']

/**
 * After an attempt of a job that serves many orders (a signer's confirmer pass): each
 * per-order step it recorded (job_events of this job and attempt: mined, confirmed,
 * reorged, replaced, ...) becomes a `mint.<event>` span in THAT order's trace, at the
 * event's time, linked to the pass's span. So a mint's trace shows its confirmation
 * although the pass that confirmed it is a trace of its own. Only with tracing on.
 */
export async function traceOrderEvents(db: DbOrTx, p: { jobId: string; attempt: number; pass: Span }): Promise<void> {
  const steps = sql.join(
    ORDER_STEPS.map((e) => sql`${e}`),
    sql`, `,
  )
  const rows = await db.execute<{ order_id: string; event: string; at: Date | string; traceparent: string | null }>(sql`
    select e.order_id, e.event, e.at,
      (select r.payload->>'traceparent' from job_records r where r.order_id = e.order_id and r.payload ? 'traceparent' order by r.job_id limit 1) as traceparent
    from job_events e
    where e.job_id = ${p.jobId}::bigint and e.attempt = ${p.attempt} and e.order_id is not null and e.event in (${steps})
    order by e.id`)
  const link = { context: p.pass.spanContext() }
  for (const r of rows) {
    if (!r.traceparent) continue
    const at = new Date(r.at)
    tracer()
      .startSpan(
        `mint.${r.event}`,
        { startTime: at, links: [link], attributes: { 'mintdesk.order_id': r.order_id } },
        contextOfTraceparent(r.traceparent),
      )
      .end(at)
  }
}
