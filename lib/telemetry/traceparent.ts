import { type Context, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from '@opentelemetry/api'

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/**
 * The W3C `traceparent` of the active span (`00-<trace id>-<span id>-<flags>`), to carry a
 * mint's trace across the queue in its job payload and SQS message; undefined when
 * tracing is off (no recording span), so a payload stays as it was.
 */
export function currentTraceparent(): string | undefined {
  const span = trace.getActiveSpan()
  if (!span?.isRecording()) return undefined
  return formatTraceparent(span.spanContext())
}

export function formatTraceparent(c: SpanContext): string {
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0')}`
}

/**
 * The remote parent a `traceparent` names, as a context to start spans in; the root context when absent or malformed.
 */
export function contextOfTraceparent(traceparent: unknown): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT
  const m = TRACEPARENT.exec(traceparent.trim().toLowerCase())
  if (!m || /^0+$/.test(m[1] ?? '') || /^0+$/.test(m[2] ?? '')) return ROOT_CONTEXT
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1] ?? '',
    spanId: m[2] ?? '',
    traceFlags: Number.parseInt(m[3] ?? '0', 16),
    isRemote: true,
  })
}

/**
 * An order's job payload (one with `orderId`) with the active trace's `traceparent` added
 * (unless it has one): its attempts join the mint's trace. Other jobs (a signer's
 * confirmer, the periodic checks) get none: each of their runs is a trace of its own,
 * never a chain of runs that re-add each other. The same payload when tracing is off.
 */
export function withTraceparent<P extends Record<string, unknown>>(payload: P): P {
  if ('traceparent' in payload || !('orderId' in payload)) return payload
  const traceparent = currentTraceparent()
  return traceparent ? { ...payload, traceparent } : payload
}
