import { availableParallelism } from 'node:os'
import { CLOCK_TICKS_PER_SECOND, processTree, readMachineTicks, readMainThreadStat, readProcessTable } from './proc'
import type { ProcessGroupsSource } from './processGroups'
import type { CpuUsage } from './startCpuMeter'

type Sample = { at: number; groups: Record<string, number>; machineBusy: number; machineTotal: number }

export type CpuTimeline = {
  /** the CPU each group used between two wall-clock times (epoch ms), interpolated between samples */
  between: (fromMs: number, toMs: number) => CpuUsage
  stop: () => void
}

/**
 * CPU ticks per process group sampled every `intervalMs` (epoch-ms timestamps), so a
 * window can be cut afterwards by times read from the database: the drain is timed from
 * its first job event to its last confirmation, and the CPU of exactly that window is
 * charged to its orders (a worker's start, before it takes its first job, is left out).
 * Ticks of a process are its own plus its reaped children's (Postgres backends), like
 * startCpuMeter.
 */
export function startCpuTimeline({
  groups,
  intervalMs = 200,
}: {
  groups: ProcessGroupsSource
  intervalMs?: number
}): CpuTimeline {
  const samples: Sample[] = []
  const take = () => {
    const machine = readMachineTicks()
    samples.push({ at: Date.now(), groups: groupTicks(groups), machineBusy: machine.busy, machineTotal: machine.total })
  }
  take()
  const timer = setInterval(take, intervalMs)
  timer.unref()
  const at = (t: number, pick: (s: Sample) => number): number => {
    if (samples.length === 0) return 0
    const first = samples[0] as Sample
    if (t <= first.at) return pick(first)
    for (let i = 1; i < samples.length; i++) {
      const b = samples[i] as Sample
      if (b.at < t) continue
      const a = samples[i - 1] as Sample
      const f = b.at === a.at ? 1 : (t - a.at) / (b.at - a.at)
      // a group whose process appeared or exited between samples: no interpolation across the jump
      return pick(a) + Math.max(0, pick(b) - pick(a)) * f
    }
    return pick(samples[samples.length - 1] as Sample)
  }
  return {
    between: (fromMs, toMs) => {
      take()
      const wallMs = Math.max(1, toMs - fromMs)
      const cores = availableParallelism()
      const names = new Set(samples.flatMap((s) => Object.keys(s.groups)))
      const partial = new Set(
        groups()
          .filter((g) => g.mainThread)
          .map((g) => g.name),
      )
      const byGroup: Record<string, number> = {}
      let ours = 0
      for (const name of names) {
        const used = Math.max(0, at(toMs, (s) => s.groups[name] ?? 0) - at(fromMs, (s) => s.groups[name] ?? 0))
        byGroup[name] = used / CLOCK_TICKS_PER_SECOND / (wallMs / 1000)
        if (!partial.has(name)) ours += byGroup[name] as number
      }
      const busy = at(toMs, (s) => s.machineBusy) - at(fromMs, (s) => s.machineBusy)
      const total = at(toMs, (s) => s.machineTotal) - at(fromMs, (s) => s.machineTotal)
      const machineBusy = total > 0 ? (busy / total) * cores : 0
      return { wallMs, cores, byGroup, machineBusy, others: Math.max(0, machineBusy - ours) }
    },
    stop: () => clearInterval(timer),
  }
}

function groupTicks(groups: ProcessGroupsSource): Record<string, number> {
  const table = readProcessTable()
  const out: Record<string, number> = {}
  for (const g of groups()) {
    let sum = 0
    for (const root of g.roots) {
      for (const pid of g.tree ? processTree(root, table) : [root]) {
        if (g.mainThread) {
          sum += readMainThreadStat(pid)?.ticks ?? 0
          continue
        }
        const p = table.get(pid)
        if (p) sum += g.tree ? p.ticks + p.childTicks : p.ticks
      }
    }
    out[g.name] = (out[g.name] ?? 0) + sum
  }
  return out
}
