const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/

/**
 * The trace id of a job payload's `traceparent` (lib/telemetry/traceparent.ts puts it
 * there), or null: what the admin job page shows and links. No OpenTelemetry import, so
 * the browser bundle stays free of it.
 */
export function traceIdOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || !('traceparent' in payload)) return null
  const { traceparent } = payload
  if (typeof traceparent !== 'string') return null
  const id = TRACEPARENT.exec(traceparent.trim().toLowerCase())?.[1] ?? null
  return id && !/^0+$/.test(id) ? id : null
}

/** The trace viewer's link of a trace id (TRACE_URL with `{traceId}`), or null without a template. */
export function traceUrlOf(traceId: string, template: string | null | undefined): string | null {
  return template ? template.replaceAll('{traceId}', traceId) : null
}
