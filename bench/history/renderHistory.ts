import { historyTargets } from './historyTargets'
import type { HistoryResult } from './runHistory'

/** The history bench's section of the report, in markdown: the volume seeded, each route's p95 against its target
 * (PASS / MISS and why), and the plans of the routes (EXPLAIN ANALYZE, BUFFERS through auto_explain). */
export function renderHistory(result: HistoryResult, p: { heading?: string } = {}): string {
  const lines: string[] = []
  lines.push(p.heading ?? '## A year of history', '')
  const seeded =
    result.seedSeconds !== null
      ? ` in ${result.seedSeconds.toFixed(0)} s`
      : ` by an earlier run${result.seededAt ? ` (${result.seededAt})` : ''}${result.reusedDataDir ? `, its seed reused from \`${result.reusedDataDir}\`` : ''}`
  lines.push(
    `Seeded at scale ${result.scale}${seeded}` +
      " (bench/history/seedYearOfHistory.ts); rows per table (the planner's estimate):",
    '',
    '| table | rows |',
    '| --- | ---: |',
  )
  for (const [table, n] of Object.entries(result.counts)) lines.push(`| ${table} | ${n.toLocaleString('en-US')} |`)
  lines.push(
    '',
    "Each route through the data function its handler calls, on the web role's connection, p95 of " +
      `${result.routes[0]?.calls ?? 0} calls in a row after 3 untimed:`,
    '',
    '| route | p50 ms | p95 ms | target ms | result |',
    '| --- | ---: | ---: | ---: | --- |',
  )
  for (const [i, row] of historyTargets(result).entries()) {
    const r = result.routes[i]
    lines.push(
      `| ${row.name} | ${r ? r.p50Ms.toFixed(1) : ''} | ${row.p95Ms.toFixed(1)} | ${row.targetMs} | ${row.pass ? 'PASS' : `MISS: ${row.why}`} |`,
    )
  }
  const planned = result.routes.filter((r) => r.plans.length > 0)
  if (planned.length > 0) {
    lines.push('', '### Plans', '')
    for (const r of planned) {
      lines.push(`<details><summary>${r.name}</summary>`, '', '```')
      for (const plan of r.plans) lines.push(plan.trim(), '')
      lines.push('```', '', '</details>', '')
    }
  }
  return `${lines.join('\n')}\n`
}
