import { traceIdOf, traceUrlOf } from '@/lib/web/telemetry/traceIdOf'

/**
 * The job's trace: the trace id its payload carries, linked to the trace viewer when
 * TRACE_URL is set, shown for copying otherwise; nothing for a job whose payload carries
 * none (tracing was off when it was added).
 */
export function TraceLink({ payload, traceUrl }: { payload: unknown; traceUrl: string | null }) {
  const traceId = traceIdOf(payload)
  if (!traceId) return null
  const href = traceUrlOf(traceId, traceUrl)
  return (
    <p className="text-xs text-stone-500">
      Trace{' '}
      {href ? (
        <a href={href} target="_blank" rel="noreferrer" className="font-mono text-brand-700 hover:underline">
          {traceId}
        </a>
      ) : (
        <span className="font-mono select-all">{traceId}</span>
      )}
    </p>
  )
}
