// Next.js calls register() once when a server instance starts (next start, and the
// standalone server.js of the web image). The Node.js half (instrumentation-node.ts)
// parses the configuration then, so a production web with a missing secret or a dev
// default left in place exits at once, naming the variable, instead of failing on its
// first request (and so does one whose database role holds more than its grants, or whose
// MINTER_ADDRESS is not the worker's); then it starts the telemetry
// (lib/web/telemetry/startWebTelemetry.ts). The runtime test keeps the Edge bundle free of
// Node-only code.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { assertWebConfig } = await import('./instrumentation-node')
    await assertWebConfig()
    // tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) and the web's own metric series
    if (process.env.NEXT_PHASE !== 'phase-production-build') {
      const { startWebTelemetry } = await import('./lib/web/telemetry/startWebTelemetry')
      await startWebTelemetry()
    }
  }
}
