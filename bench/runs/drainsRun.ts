import { type DrainResult, runDrain } from '../pipeline/runDrain'
import { drainTargets } from '../report/drainTargets'
import { renderDrains } from '../report/renderDrains'
import type { BenchRun } from './BenchRun'

/**
 * The scaling table: one drain per signer count x worker processes (the 1-worker rows carry the targets), each from
 * an idle stack; between two drains a worker sends the notifications the last one left.
 */
export const drainsRun: BenchRun<'drains'> = {
  name: 'drains',
  section: 1,
  stack: 'main',
  enabled: () => true,
  mintBodies: (o) => o.signerCounts.length * o.workerCounts.length * o.orders,
  run: async (ctx) => {
    const { options: o, stack } = ctx
    // a worker registers its keys in `signers` when it starts: once, before the drains choose among them
    await stack.startWorker()
    await stack.stopWorkers()
    const drains: DrainResult[] = []
    for (const workers of o.workerCounts) {
      for (const signers of o.signerCounts) {
        const previous = drains.at(-1)
        if (previous)
          await ctx.sendNotifications(`the drain of ${previous.signers} signer(s) x ${previous.workers} worker(s)`)
        drains.push(
          await runDrain({
            sql: ctx.sql,
            poster: ctx.poster,
            bodies: ctx.bodies,
            workerSigners: ctx.workerSigners,
            signers,
            workers,
            orders: o.orders,
            submitConcurrency: o.submitConcurrency,
            approver: ctx.approver,
            startWorker: stack.startWorker,
            stopWorkers: stack.stopWorkers,
            timeline: ctx.timeline,
            timeoutMs: Math.max(120_000, o.orders * 300),
            log: ctx.log,
          }),
        )
      }
    }
    return { drains }
  },
  render: renderDrains,
  targets: drainTargets,
  method: [
    "Drain: the orders are accepted through the API with no worker running (the queue already full), then the workers start; the window runs from the first job_events row of the batch after its `enqueued` rows (a worker took an order) to its last `confirmed` row, both the database's clock. Rate = confirmed orders / window. Between two drains every worker is stopped (SIGTERM).",
    "CPU per confirmed order: /proc/<pid>/stat ticks (user + system, the process's own and its reaped children's) of each group's process tree, sampled every 200 ms and interpolated to the window; divided by the confirmed orders. The stack = web + worker(s) + Postgres (every backend) + anvil + the KMS endpoint; the bench's own process (load generator, pollers) is left out. \"Worker event loop\" counts the worker's main thread only.",
  ],
}
