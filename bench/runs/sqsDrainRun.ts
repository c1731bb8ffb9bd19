import { runSqsDrain } from '../pipeline/runSqsDrain'
import { renderTransportAndTracing } from '../report/renderTransportAndTracing'
import { transportAndTracingTargets } from '../report/transportAndTracingTargets'
import type { BenchRun } from './BenchRun'

/**
 * The SQS transport's row: the 1 signer x 1 worker drain on a stack of its own booted with QUEUE_TRANSPORT=sqs.
 * Its section and targets are drawn together with the tracing comparison's (sections 6 and 7).
 */
export const sqsDrainRun: BenchRun<'sqs'> = {
  name: 'SQS drain',
  section: 6,
  stack: 'own',
  enabled: (o) => o.sqsOrders > 0,
  run: async ({ root, options: o, log }) => ({
    sqs: await runSqsDrain({
      root,
      orders: o.sqsOrders,
      submitConcurrency: o.submitConcurrency,
      blockTime: o.blockTime,
      log,
    }),
  }),
  render: renderTransportAndTracing,
  targets: transportAndTracingTargets,
  method: [
    "SQS transport: a second stack with QUEUE_TRANSPORT=sqs and the embedded SQS endpoint in its own process; the same drain (outbox -> relay -> SQS -> consumer -> send path), timed and metered like section 1's.",
  ],
}
