import { intakeParameters } from '../intake/intakeParameters'
import { runIntake } from '../intake/runIntake'
import { activateSigners } from '../pipeline/activateSigners'
import { waitForQuietPipeline } from '../pipeline/waitForQuietPipeline'
import type { BenchRun } from './BenchRun'
import { INTAKE_ORDERS_PER_SECOND } from './intakeIdleRun'

/**
 * The intake with a worker running beside it (every signer active; the paced run leaves its worker running, or one
 * starts), at the most clients: the API and the raw SQL. Its rows are section 3's, drawn by intakeIdleRun.
 */
export const intakeBesideRun: BenchRun<'intake'> = {
  name: 'intake, worker running',
  section: 3,
  stack: 'main',
  enabled: () => true,
  mintBodies: (o) => 2 * o.intakeSeconds * INTAKE_ORDERS_PER_SECOND,
  run: async (ctx) => {
    const { options: o } = ctx
    await activateSigners(ctx.sql, { addresses: ctx.workerSigners.slice(0, Math.max(...o.signerCounts)) })
    if (ctx.stack.workers.length === 0) await ctx.stack.startWorker()
    const beside = await runIntake({
      ...intakeParameters(ctx),
      concurrencies: [Math.max(...o.concurrencies)],
      kinds: ['api', 'sql'],
      label: 'worker running',
      warmUp: false,
    })
    await waitForQuietPipeline(ctx.sql, { timeoutMs: 180_000, log: ctx.log })
    return { intake: { idle: ctx.measured.intake?.idle ?? [], beside } }
  },
}
