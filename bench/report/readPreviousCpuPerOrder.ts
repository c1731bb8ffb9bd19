/** The previous report's drain CPU per order, carried into the next report beside the new figure. */
export type PreviousCpuPerOrder = {
  /** the previous run's date line, as it wrote it */
  date: string
  /** its target row's name, e.g. "CPU per confirmed order, drain, 1 signer: <= 15 ms (all processes)" */
  target: string
  /** what it measured, e.g. "13.7 ms (worker 8.0, postgres 2.5, ...)" */
  measured: string
  ms: number
}

/**
 * Reads, from a report `npm run bench` wrote before (its Markdown text), the date and the
 * CPU per confirmed order of its drain with the fewest signers (the first such row of its
 * targets table). Null when the text holds no such row (no report yet, or another layout).
 */
export function readPreviousCpuPerOrder(report: string): PreviousCpuPerOrder | null {
  const date = /^- \*\*Date:\*\* (.+)$/mu.exec(report)?.[1]?.trim()
  const row = report
    .split('\n')
    .find((line) => line.startsWith('| CPU per confirmed order, drain, ') && !line.includes('email'))
  if (!date || !row) return null
  const [target, measured] = row
    .split('|')
    .slice(1, 3)
    .map((cell) => cell.trim())
  const ms = Number(/^([0-9.]+) ms/u.exec(measured ?? '')?.[1])
  if (!target || !measured || !Number.isFinite(ms)) return null
  return { date, target, measured, ms }
}
