import type { SomeBenchRun } from './BenchRun'
import { BENCH_RUNS } from './benchRuns'

/** The runs in the order of the report's sections (their `section`; the list's order among equals). */
export function runsInReportOrder(runs: readonly SomeBenchRun[] = BENCH_RUNS): SomeBenchRun[] {
  return [...runs].sort((a, b) => a.section - b.section)
}
