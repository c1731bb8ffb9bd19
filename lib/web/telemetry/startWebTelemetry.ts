import { startMetricsFlush } from '@/lib/ops/startMetricsFlush'
import { startTracing } from '@/lib/telemetry/startTracing'
import { getWebDb } from '@/lib/web/webProcess'

/**
 * The web's telemetry, started once by instrumentation.ts: tracing when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (service.name mintdesk-web; Next's own request spans
 * join it), and the flush of this process's counters and histograms (the intake latency)
 * to metric_series every 10 s.
 */
export async function startWebTelemetry(): Promise<void> {
  await startTracing({ serviceName: 'mintdesk-web' })
  startMetricsFlush(getWebDb().db, {
    role: 'web',
    onError: (err) =>
      console.error(
        JSON.stringify({
          level: 'warn',
          msg: 'metric_series flush failed',
          err: err instanceof Error ? err.message : String(err),
        }),
      ),
  })
}
