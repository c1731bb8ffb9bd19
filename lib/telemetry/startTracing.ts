import type { SpanExporter } from '@opentelemetry/sdk-trace-base'
import { setTracingEnabled } from './tracingState'

export type StartTracingParameters = {
  /** service.name of every span: mintdesk-web or mintdesk-worker (OTEL_SERVICE_NAME wins when set) */
  serviceName: 'mintdesk-web' | 'mintdesk-worker'
  /** where OTEL_* are read; process.env by default */
  env?: Record<string, string | undefined>
  /** an exporter of the caller's instead of OTLP (tests: InMemorySpanExporter); spans are then exported one by one */
  exporter?: SpanExporter
}

export type StartTracingReturnType = {
  enabled: boolean
  /** exports what is buffered, then stops; call it before the process exits */
  shutdown: () => Promise<void>
}

/**
 * Tracing with OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: then the SDK is loaded (a dynamic import,
 * nothing of it is loaded otherwise), a provider with the service name is registered
 * globally (the AsyncLocalStorage context, W3C trace context) and spans leave in batches
 * over OTLP, `http/protobuf` by default or `http/json` as OTEL_EXPORTER_OTLP_PROTOCOL says;
 * the exporter reads the endpoint, headers and timeout from the standard variables.
 * Off, every span of lib/telemetry is the API's no-op. OTEL_SDK_DISABLED=true turns it off.
 */
export async function startTracing({
  serviceName,
  env = process.env,
  exporter,
}: StartTracingParameters): Promise<StartTracingReturnType> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT
  if ((!exporter && !endpoint) || env.OTEL_SDK_DISABLED === 'true') return { enabled: false, shutdown: async () => {} }

  const [{ NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }] =
    await Promise.all([import('@opentelemetry/sdk-trace-node'), import('@opentelemetry/resources')])
  const processor = exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(await otlpExporter(env))
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [processor],
  })
  provider.register()
  setTracingEnabled(true)
  return {
    enabled: true,
    shutdown: async () => {
      setTracingEnabled(false)
      await provider.shutdown()
    },
  }
}

/**
 * The OTLP/HTTP exporter of OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: http/json or http/protobuf (grpc is not shipped:
 * protobuf over HTTP instead).
 */
async function otlpExporter(env: Record<string, string | undefined>): Promise<SpanExporter> {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf'
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
    return new OTLPTraceExporter()
  }
  if (protocol !== 'http/protobuf') {
    process.stderr.write(
      `${JSON.stringify({ level: 'warn', msg: 'OTEL_EXPORTER_OTLP_PROTOCOL not supported: using http/protobuf', protocol })}\n`,
    )
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter()
}
