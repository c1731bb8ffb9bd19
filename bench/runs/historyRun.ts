import { rmSync } from 'node:fs'
import path from 'node:path'
import type { BenchResult } from '../BenchResult'
import { historyTargets } from '../history/historyTargets'
import { renderHistory } from '../history/renderHistory'
import { runHistoryOnDataDir } from '../history/runHistoryOnDataDir'
import type { TargetResult } from '../report/evaluateTargets'
import type { BenchRun } from './BenchRun'

const HEADING = '## 9. A year of history: the admin pages, the reserves and the lookup'

/**
 * A year of history (bench/history/, docs/decisions/066-a-year-of-history.md) on an embedded Postgres of its own:
 * seeded at --history-scale in a fresh directory, or the seed of --history-data reused (migrated first); every admin
 * list and search, the job and order pages, the dashboard, the reserves API's database part and the public lookup
 * timed through their data functions on the web role, each held to its p95 target.
 */
export const historyRun: BenchRun<'history'> = {
  name: 'a year of history',
  section: 9,
  stack: 'own',
  enabled: (o) => o.historyScale > 0 || o.historyData !== null,
  run: async ({ root, options: o, log }) => {
    let dataDir = o.historyData
    if (dataDir === null) {
      // a fresh year: the folder of an earlier bench's seed is not reused unless named
      dataDir = path.join(root, '.data', 'bench', 'history')
      rmSync(dataDir, { recursive: true, force: true })
    }
    return { history: await runHistoryOnDataDir({ dataDir, scale: o.historyScale, log }) }
  },
  render: ({ result, line }) => {
    if (!result.history) {
      line(HEADING)
      line()
      line('Not measured in this run.')
      line()
      return
    }
    for (const l of renderHistory(result.history, { heading: HEADING }).trimEnd().split('\n')) line(l)
    line()
  },
  targets: historyRunTargets,
  method: [
    "A year of history: a year of a busy desk (a million orders at scale 1, ten timeline events each, a million audit rows through the chain's trigger, 200,000 bars) written set-based into a Postgres of its own (bench/history/seedYearOfHistory.ts), or a seeded directory reused (--history-data); each route through the data function its handler calls on the web role, 30 calls in a row after 3 untimed, p95 against its target (admin 200 ms, reserves 50 ms, lookup 100 ms); a miss names what its plan shows (auto_explain, ANALYZE and BUFFERS).",
  ],
}

/** Each measured route's p95 against its target, the why of a miss read from its plans. */
function historyRunTargets(result: BenchResult): TargetResult[] {
  if (!result.history) return []
  const routes = result.history.routes
  return historyTargets(result.history).map((row, i) => ({
    name: `A year of history: ${row.name} p95 <= ${row.targetMs} ms`,
    measured: `${row.p95Ms.toFixed(1)} ms`,
    pass: row.pass,
    ...(row.pass
      ? {}
      : {
          note: {
            bound: row.why,
            evidence: [
              `p50 ${routes[i]?.p50Ms.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms, max ${routes[i]?.maxMs.toFixed(1)} ms`,
            ],
          },
        }),
  }))
}
