import { intakeParameters } from '../intake/intakeParameters'
import { runIntake } from '../intake/runIntake'
import { dropQueuedOrders } from '../pipeline/dropQueuedOrders'
import { intakeTargets } from '../report/intakeTargets'
import { renderIntake } from '../report/renderIntake'
import type { BenchRun } from './BenchRun'

/** ~1,500 orders a second at most: the bars each intake run of its length may take */
export const INTAKE_ORDERS_PER_SECOND = 1500

/**
 * The intake alone (no worker running): at each concurrency, the API, the same transaction over raw SQL and the
 * framework's floor. Its orders wait for approval and never run: they are cancelled at the end. Section 3 holds it
 * and the intake beside the worker (intakeBesideRun).
 */
export const intakeIdleRun: BenchRun<'intake'> = {
  name: 'intake, worker idle',
  section: 3,
  stack: 'main',
  enabled: () => true,
  // the API and the raw SQL runs take bars; the floor does not
  mintBodies: (o) => o.concurrencies.length * 2 * o.intakeSeconds * INTAKE_ORDERS_PER_SECOND,
  run: async (ctx) => {
    const idle = await runIntake({
      ...intakeParameters(ctx),
      concurrencies: ctx.options.concurrencies,
      kinds: ['api', 'sql', 'floor'],
      label: 'worker idle',
    })
    await dropQueuedOrders(ctx.sql)
    return { intake: { idle, beside: [] } }
  },
  render: renderIntake,
  targets: intakeTargets,
  method: [
    "Intake: autocannon 9; a request counts when it got 202. Raw SQL: the intake's own transaction without HTTP, session or validation (`bench/intake/insertOrderRaw.ts`, kept in step with `lib/web/mint/createMintOrder.ts`). The floor: the route wrapper's checks then 415. Postgres exec = pg_stat_statements' total_exec_time over the run.",
  ],
}
