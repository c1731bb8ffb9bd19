import { memoryTargets } from '../report/memoryTargets'
import { renderMemory } from '../report/renderMemory'
import type { BenchRun } from './BenchRun'

/**
 * Memory, as shipped: the peaks of every process group over all the runs before it (the sampler runs from the
 * stack's start), taken once no worker runs; the runs after it (bar-list import, audit export) have rows of their own.
 */
export const memoryRun: BenchRun<'memory'> = {
  name: 'memory peaks',
  section: 4,
  stack: 'main',
  enabled: () => true,
  run: async (ctx) => {
    await ctx.settleWorkers('the runs before')
    return { memory: ctx.memory.stop() }
  },
  render: renderMemory,
  targets: memoryTargets,
  method: [
    'Memory: /proc/<pid>/status VmHWM of every process of the group (the peak since the process started), /proc/<pid>/smaps_rollup Pss sampled every 500 ms.',
  ],
}
