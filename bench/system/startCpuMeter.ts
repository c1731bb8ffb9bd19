import { availableParallelism } from 'node:os'
import { CLOCK_TICKS_PER_SECOND, processTree, readMachineTicks, readMainThreadStat, readProcessTable } from './proc'
import type { ProcessGroupsSource } from './processGroups'

export type CpuUsage = {
  wallMs: number
  /** CPUs of the machine */
  cores: number
  /**
   * cores used on average per group (1 = one core busy for the whole window); main-thread groups are parts of others
   */
  byGroup: Record<string, number>
  /** cores busy on the whole machine, whoever used them */
  machineBusy: number
  /** busy cores not accounted for by any group: other work on the machine (others' tests) */
  others: number
}

export type CpuMeter = { stop: () => CpuUsage }

/**
 * CPU time per process group over a window, from /proc: for each live process of a
 * group, its own ticks plus those of its reaped children, so short-lived children
 * (Postgres backends) are counted too. The difference end - start over the wall time
 * is the average number of cores the group kept busy.
 */
export function startCpuMeter({ groups }: { groups: ProcessGroupsSource }): CpuMeter {
  const started = performance.now()
  const machine0 = readMachineTicks()
  const ticks0 = groupTicks(groups)
  return {
    stop: () => {
      const wallMs = performance.now() - started
      const machine1 = readMachineTicks()
      const ticks1 = groupTicks(groups)
      const cores = availableParallelism()
      const byGroup: Record<string, number> = {}
      const partial = new Set(
        groups()
          .filter((g) => g.mainThread)
          .map((g) => g.name),
      )
      let ours = 0
      for (const [name, t1] of Object.entries(ticks1)) {
        const used = Math.max(0, t1 - (ticks0[name] ?? t1)) / CLOCK_TICKS_PER_SECOND / (wallMs / 1000)
        byGroup[name] = used
        // a main-thread group is a part of another group: counted there
        if (!partial.has(name)) ours += used
      }
      const machineTotal = machine1.total - machine0.total
      const machineBusy = machineTotal > 0 ? ((machine1.busy - machine0.busy) / machineTotal) * cores : 0
      return { wallMs, cores, byGroup, machineBusy, others: Math.max(0, machineBusy - ours) }
    },
  }
}

function groupTicks(groups: ProcessGroupsSource): Record<string, number> {
  const table = readProcessTable()
  const out: Record<string, number> = {}
  for (const g of groups()) {
    let sum = 0
    for (const root of g.roots) {
      const pids = g.tree ? processTree(root, table) : [root]
      for (const pid of pids) {
        if (g.mainThread) {
          sum += readMainThreadStat(pid)?.ticks ?? 0
          continue
        }
        const p = table.get(pid)
        if (!p) continue
        sum += g.tree ? p.ticks + p.childTicks : p.ticks
      }
    }
    out[g.name] = (out[g.name] ?? 0) + sum
  }
  return out
}
