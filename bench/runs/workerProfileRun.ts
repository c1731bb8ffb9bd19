import { runOrderBatch } from '../pipeline/runOrderBatch'
import { withProfile } from '../profile/withProfile'
import { APPENDIX, type BenchRun } from './BenchRun'

/**
 * The worker's CPU profile and memory under a burst of orders with every signer active (not a measured run), in the
 * worker the runs before left running (or one started). Drawn in the CPU profiles' section (webProfileRun's) and
 * section 4's lines on memory.
 */
export const workerProfileRun: BenchRun<'profiles'> = {
  name: 'worker profile',
  section: APPENDIX,
  stack: 'main',
  enabled: (o) => o.profile,
  run: async (ctx) => {
    const { options: o, stack } = ctx
    const n = Math.min(o.orders, 500)
    ctx.log(
      `profiling the worker under a burst of ${n} orders, ${Math.max(...o.signerCounts)} signer(s) (not a measured run)`,
    )
    if (stack.workers.length === 0) await stack.startWorker()
    const roots = stack.workers.map((w) => w.child.pid ?? 0)
    // its memory so far counts; from here on it holds the profiler's samples too, which no image ships
    ctx.memory.exclude(roots)
    const profiles = { ...ctx.measured.profiles }
    profiles.worker = await withProfile({ stack, root: ctx.root, who: 'worker', roots }, async () => {
      profiles.workerBatch = await runOrderBatch({
        sql: ctx.sql,
        poster: ctx.poster,
        approver: ctx.approver,
        bodies: ctx.bodies,
        count: n,
        mode: { kind: 'burst', concurrency: o.submitConcurrency },
        timeoutMs: 120_000,
        groups: stack.groups,
      })
    })
    return { profiles }
  },
}
