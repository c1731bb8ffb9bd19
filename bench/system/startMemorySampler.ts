import { type ProcMemory, processTree, readProcessTable, readProcMemory, readProcPssKb } from './proc'
import type { ProcessGroupsSource } from './processGroups'

export type GroupMemory = {
  /** the largest VmHWM (peak resident set, kernel-tracked) of one process of the group */
  peakProcessKb: number
  /** that process's command line */
  peakProcessCmd: string
  /** the largest sum of PSS over the group's processes seen by the sampler */
  peakTreeKb: number
  /** every process of the group at the last sample, with its own VmHWM */
  processes: ProcMemory[]
}

export type MemorySampler = {
  /** a sample now (e.g. just before a process is stopped) */
  sample: () => void
  /**
   * takes a last sample of these processes, then leaves them out (a worker about to run under the CPU profiler, whose
   * memory is the profiler's too)
   */
  exclude: (pids: readonly number[]) => void
  stop: () => Record<string, GroupMemory>
}

/**
 * Peak memory per process group: VmHWM of each process (the kernel's high-water mark of
 * its resident set, so no peak is missed between samples) and, sampled every
 * `intervalMs`, the proportional set size of the whole tree (a wrapper plus its child,
 * Postgres's backends).
 */
export function startMemorySampler({
  groups,
  intervalMs = 500,
}: {
  groups: ProcessGroupsSource
  intervalMs?: number
}): MemorySampler {
  const state = new Map<string, GroupMemory>()
  const excluded = new Set<number>()
  const sample = () => {
    const table = readProcessTable()
    const seen = new Map<string, ProcMemory[]>()
    for (const g of groups()) {
      if (g.mainThread) continue
      const list = seen.get(g.name) ?? []
      for (const root of g.roots) {
        for (const pid of g.tree ? processTree(root, table) : [root]) {
          if (excluded.has(pid)) continue
          const m = readProcMemory(pid)
          if (m) list.push(m)
        }
      }
      seen.set(g.name, list)
    }
    for (const [name, list] of seen) {
      if (list.length === 0) continue
      const prev = state.get(name) ?? { peakProcessKb: 0, peakProcessCmd: '', peakTreeKb: 0, processes: [] }
      const tree = list.reduce((a, m) => a + readProcPssKb(m.pid), 0)
      const top = list.reduce((a, m) => (m.hwmKb > a.hwmKb ? m : a))
      state.set(name, {
        peakProcessKb: Math.max(prev.peakProcessKb, top.hwmKb),
        peakProcessCmd: top.hwmKb >= prev.peakProcessKb ? top.cmd : prev.peakProcessCmd,
        peakTreeKb: Math.max(prev.peakTreeKb, tree),
        processes: list,
      })
    }
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    sample,
    exclude: (pids) => {
      sample()
      for (const pid of pids) excluded.add(pid)
    },
    stop: () => {
      clearInterval(timer)
      sample()
      return Object.fromEntries(state)
    },
  }
}
