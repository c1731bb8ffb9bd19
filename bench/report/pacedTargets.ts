import type { BenchResult, FloorRun, PacedRun } from '../BenchResult'
import type { TargetResult } from './evaluateTargets'
import { cpuLine, cpuMsPer, ms, num, rate } from './format'

/** Section 2's targets: the paced run's committed -> broadcast p50 and p99, broadcast -> confirmed within a block. */
export function pacedTargets(r: BenchResult): TargetResult[] {
  const p = r.paced
  if (!p) return []
  const label = `Under capacity (${p.perSecond}/s = half of ${rate(p.capacity)}/s)`
  const c2b = p.committedToBroadcast
  const note = pacedEvidence(p, r.floor)
  const limit = r.options.blockTime * 1000 + r.worker.confirmPollMs
  const b2c = p.broadcastToConfirmed
  return [
    {
      name: `${label}: committed -> broadcast p50 <= 25 ms`,
      measured: `p50 ${ms(c2b.p50)} ms`,
      pass: c2b.p50 <= 25,
      note: c2b.p50 <= 25 ? undefined : note,
    },
    {
      name: `${label}: committed -> broadcast p99 <= 100 ms`,
      measured: `p99 ${ms(c2b.p99)} ms`,
      pass: c2b.p99 <= 100,
      note: c2b.p99 <= 100 ? undefined : note,
    },
    {
      name: `${label}: broadcast -> confirmed within one block + one poll (${limit} ms), p99`,
      measured: `p50 ${ms(b2c.p50)} ms, p99 ${ms(b2c.p99)} ms`,
      pass: b2c.p99 <= limit,
      note: b2c.p99 <= limit ? undefined : note,
    },
  ]
}

function pacedEvidence(p: PacedRun, floor: FloorRun | undefined): { bound: string; evidence: string[] } {
  const steps = p.stages.filter((x) => !x.name.startsWith('request sent') && !x.name.startsWith('broadcast ->'))
  const top = [...steps].sort((a, b) => b.summary.p50 - a.summary.p50).slice(0, 3)
  const floorLine = floor
    ? [
        `The floor, the same path at ${floor.perSecond}/s, each order a batch of its own and no order waiting for another: committed -> broadcast p50 ${ms(floor.committedToBroadcast.p50)} ms, p99 ${ms(floor.committedToBroadcast.p99)} ms ` +
          `(machine ${num(floor.cpu.machineBusy, 2)} of 2 cores busy; the worker's event loop ${num(cpuMsPer(floor.cpu, 'worker main thread', Math.max(1, floor.submitted)), 1)} ms of CPU per order there, the work that runs whatever the rate included, against ${num(cpuMsPer(p.cpu, 'worker main thread', Math.max(1, p.submitted)), 1)} ms at ${p.perSecond}/s).`,
      ]
    : []
  return {
    bound: `the steps in series; the largest medians: ${top.map((x) => `${x.name} ${ms(x.summary.p50)} ms`).join('; ')}.`,
    evidence: [
      ...floorLine,
      ...p.stages.map((x) => `${x.name}: p50 ${ms(x.summary.p50)} ms, p99 ${ms(x.summary.p99)} ms`),
      `CPU over the paced run (cores): ${cpuLine(p.cpu)}.`,
    ],
  }
}
