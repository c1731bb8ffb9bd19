import { SpanKind } from '@opentelemetry/api'
import { METRIC } from '@/lib/ops/metricFamilies'
import { observeHistogram } from '@/lib/telemetry/metricRegistry'
import { withSpan } from '@/lib/telemetry/withSpan'

/**
 * The intake (POST /api/gold/mint: `handler: (args) => traceIntake(async () => ...)`) as the first span of a mint's
 * trace, `mint.intake` (beneath Next's request span when tracing is on), and its latency in
 * mintdesk_intake_duration_seconds, refusals included.
 */
export async function traceIntake<R>(handle: () => Promise<R>): Promise<R> {
  const started = performance.now()
  try {
    return await withSpan(
      'mint.intake',
      { kind: SpanKind.SERVER, attributes: { 'http.route': '/api/gold/mint' } },
      handle,
    )
  } finally {
    observeHistogram(METRIC.intakeSeconds.name, METRIC.intakeSeconds.buckets, (performance.now() - started) / 1000)
  }
}
