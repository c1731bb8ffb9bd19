import type { Summary } from '../system/percentiles'
import type { CpuUsage } from '../system/startCpuMeter'

export const num = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

/** milliseconds, with a decimal below 10 ms */
export const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : 'n/a')

export const rate = (n: number) =>
  Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)) : 'n/a'

export const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? a / b : NaN)

export const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`

export const p50p99 = (s: Summary) => `${ms(s.p50)} / ${ms(s.p99)}`

/** "web 0.95, postgres 0.60, ..." in cores, biggest first */
export function cpuLine(cpu: CpuUsage): string {
  const parts = Object.entries(cpu.byGroup)
    .filter(([k, v]) => v >= 0.005 && !k.endsWith('main thread'))
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k === 'bench' ? 'load generator (bench)' : k} ${v.toFixed(2)}`)
  return `${parts.join(', ')}; others on the machine ${cpu.others.toFixed(2)}; machine busy ${cpu.machineBusy.toFixed(2)} of ${cpu.cores} cores`
}

/** CPU milliseconds a group spent per unit of work (order, request) over a metered run */
export function cpuMsPer(cpu: CpuUsage, group: string, count: number): number {
  return count > 0 ? ((cpu.byGroup[group] ?? 0) * cpu.wallMs) / count : NaN
}

/** "198 confirmed, 2 failed, 1 refused": the orders of a run by status */
export function statusCell(byStatus: Record<string, number>, refused: number): string {
  const parts = Object.entries(byStatus).map(([k, v]) => `${v} ${k}`)
  if (refused > 0) parts.push(`${refused} refused`)
  return parts.join(', ')
}

/** "1 signer", "4 signers" */
export const signersLabel = (n: number) => `${n} signer${n > 1 ? 's' : ''}`
