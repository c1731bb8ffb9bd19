import { SpanKind } from '@opentelemetry/api'
import type { DbOrTx } from '@/db/client'
import { contextOfTraceparent } from '@/lib/telemetry/traceparent'
import { isTracingEnabled } from '@/lib/telemetry/tracingState'
import { tracer, withSpan } from '@/lib/telemetry/withSpan'
import { readOrderTraceparent } from './readOrderTraceparent'
import { traceOrderEvents } from './traceOrderEvents'

export type WithJobSpanParameters = {
  db: DbOrTx
  task: string
  jobId: bigint | string | null
  /** this attempt, 1-based */
  attempt: number
  orderId: string | null
  /** the job's raw payload (or the SQS message's trace context as `{ traceparent }`) */
  payload: unknown
  /** when the job became runnable: the `job.pickup` span runs from here to now */
  runAt?: Date | null
}

/**
 * One job attempt as a span of its mint's trace: the parent is the `traceparent` of the
 * payload (the intake's span), else the order's first job's (worker/telemetry/readOrderTraceparent.ts).
 * Before it, a `job.pickup` span covers the wait in the queue. Everything the attempt does
 * (KMS Sign, eth_sendRawTransaction, the jobs it adds) is beneath. A job of no order (a
 * signer's confirmer pass) is a trace of its own; its per-order steps are then put into
 * each order's trace (worker/telemetry/traceOrderEvents.ts). Off, just `fn()`.
 * Called by worker/runtime/runTask.ts; the SQS consumer calls it per message.
 */
export async function withJobSpan<T>(p: WithJobSpanParameters, fn: () => Promise<T>): Promise<T> {
  if (!isTracingEnabled()) return fn()
  const own =
    typeof p.payload === 'object' && p.payload !== null && 'traceparent' in p.payload
      ? p.payload.traceparent
      : undefined
  const traceparent =
    own ?? (p.orderId ? await readOrderTraceparent(p.db, { orderId: p.orderId }).catch(() => undefined) : undefined)
  const parent = contextOfTraceparent(traceparent)
  const attributes = {
    'mintdesk.task': p.task,
    'mintdesk.attempt': p.attempt,
    ...(p.jobId !== null ? { 'mintdesk.job_id': String(p.jobId) } : {}),
    ...(p.orderId ? { 'mintdesk.order_id': p.orderId } : {}),
  }
  if (p.runAt && p.runAt.getTime() <= Date.now())
    tracer().startSpan('job.pickup', { startTime: p.runAt, attributes, kind: SpanKind.CONSUMER }, parent).end()
  const servesManyOrders = !p.orderId && p.jobId !== null
  return withSpan(`job ${p.task}`, { parent, kind: SpanKind.CONSUMER, attributes }, async (span) => {
    try {
      return await fn()
    } finally {
      // a confirmer pass: its per-order steps into each order's own trace
      if (servesManyOrders)
        await traceOrderEvents(p.db, { jobId: String(p.jobId), attempt: p.attempt, pass: span }).catch(() => undefined)
    }
  })
}
