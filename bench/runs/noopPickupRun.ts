import { runNoopPickup } from '../pickup/runNoopPickup'
import { stackEnv } from '../stack/stackEnv'
import type { BenchRun } from './BenchRun'

/** graphile-worker's own pickup on the same stack, no mintdesk worker running: a row of section 2's table. */
export const noopPickupRun: BenchRun<'noop'> = {
  name: 'no-op pickup',
  section: 2.1,
  stack: 'main',
  enabled: (o) => o.noopJobs > 0,
  run: async (ctx) => {
    await ctx.settleWorkers('the runs before')
    const noop = await runNoopPickup({
      root: ctx.root,
      databaseUrl: stackEnv(ctx.stack, 'DATABASE_ADMIN_URL'),
      jobs: ctx.options.noopJobs,
      perSecond: 20,
      concurrency: 8,
      pollMs: 1000,
      extraGroups: ctx.stack.extraGroups,
    })
    return { noop }
  },
}
