import type { CpuProfileSummary } from '../profile/summarizeCpuProfile'
import { num } from './format'

/** A profile's busy time by area and its top functions, as evidence lines of a missed target. */
export function profileLines(label: string, profile: CpuProfileSummary | undefined): string[] {
  if (!profile) return []
  const areas = profile.byArea
    .slice(0, 6)
    .map((a) => `${a.name} ${num(a.percent, 0)}%`)
    .join(', ')
  const fns = profile.topFunctions
    .slice(0, 5)
    .map((f) => `${f.name} ${num(f.percent, 1)}%`)
    .join('; ')
  return [
    `${label} CPU profile (${num(profile.seconds, 0)} s, ${num(profile.busyPercent, 0)}% of samples busy), busy time by area: ${areas}.`,
    `Top functions by self time: ${fns}.`,
  ]
}

/** When other work took a real share of a saturated machine, the reader must know. */
export function machineAside(cpu: { machineBusy: number; cores: number; others: number }): string {
  if (cpu.machineBusy < 0.9 * cpu.cores || cpu.others < 0.25) return ''
  return ` The machine was saturated too (${num(cpu.machineBusy, 2)} of ${cpu.cores} cores busy), ${num(cpu.others, 2)} cores of it by work outside the bench (others' tests).`
}
