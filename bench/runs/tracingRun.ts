import { intakeParameters } from '../intake/intakeParameters'
import { dropQueuedOrders } from '../pipeline/dropQueuedOrders'
import { runTracingComparison } from '../pipeline/runTracingComparison'
import type { BenchRun } from './BenchRun'
import { INTAKE_ORDERS_PER_SECOND } from './intakeIdleRun'

/**
 * The cost of tracing: the same drain (1 signer, 1 worker) and intake, OTLP export off then on. Section 7 is drawn
 * with section 6 (renderTransportAndTracing, sqsDrainRun's), its target likewise.
 */
export const tracingRun: BenchRun<'tracing'> = {
  name: 'tracing off and on',
  section: 7,
  stack: 'main',
  enabled: (o) => o.tracingOrders > 0,
  // both drains, and both intakes with their warm-up
  mintBodies: (o) => 2 * o.tracingOrders + 2 * (o.intakeSeconds + 3) * INTAKE_ORDERS_PER_SECOND,
  run: async (ctx) => {
    await ctx.settleWorkers('the paced runs, the intake beside the worker and the profiled batch')
    const tracing = await runTracingComparison({
      stack: ctx.stack,
      sql: ctx.sql,
      poster: ctx.poster,
      approver: ctx.approver,
      bodies: ctx.bodies,
      workerSigners: ctx.workerSigners,
      orders: ctx.options.tracingOrders,
      submitConcurrency: ctx.options.submitConcurrency,
      timeline: ctx.timeline,
      intake: { ...intakeParameters(ctx), clients: Math.max(...ctx.options.concurrencies) },
      dropQueuedOrders: () => dropQueuedOrders(ctx.sql),
      log: ctx.log,
    })
    return { tracing }
  },
  method: [
    'Tracing: OTEL_EXPORTER_OTLP_ENDPOINT unset, then set to a local receiver answering 200 (http/protobuf); the worker started and the web restarted with it; the same drain and intake run both ways, one after the other.',
  ],
}
