/** p50/p99 and friends of a list of measurements (ms), nearest-rank percentiles. */
export type Summary = { n: number; min: number; p50: number; p90: number; p99: number; max: number; mean: number }

export const EMPTY_SUMMARY: Summary = { n: 0, min: NaN, p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN }

export function summarize(values: readonly number[]): Summary {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return EMPTY_SUMMARY
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
  const sum = sorted.reduce((a, b) => a + b, 0)
  return {
    n: sorted.length,
    min: sorted[0] as number,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    max: sorted[sorted.length - 1] as number,
    mean: sum / sorted.length,
  }
}
