import type { BenchResult } from '../BenchResult'
import type { SomeBenchRun } from '../runs/BenchRun'
import { runsInReportOrder } from '../runs/runsInReportOrder'

export type TargetResult = {
  name: string
  measured: string
  /** null: a figure the issue asks to report, with no threshold of its own */
  pass: boolean | null
  /** for a miss: what bounds it, then the measurements that show it */
  note?: { bound: string; evidence: string[] }
}

/**
 * The targets against this run, each with PASS/MISS and, for a miss, its evidence: every run's (those of
 * bench/runs/benchRuns.ts unless told), in report order.
 */
export function evaluateTargets(r: BenchResult, runs?: readonly SomeBenchRun[]): TargetResult[] {
  return runsInReportOrder(runs).flatMap((run) => run.targets?.(r) ?? [])
}
