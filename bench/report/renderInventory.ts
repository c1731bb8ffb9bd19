import type { IntakeRun } from '../intake/runIntake'
import type { Summary } from '../system/percentiles'
import type { BarListImportResult } from '../vault/runBarListImport'
import { mb, num, p50p99, rate, ratio } from './format'

type Line = (s?: string) => void
type Table = (head: string[], rows: string[][]) => void

/** what the comparison needs of an intake run */
export type IntakeFigures = Pick<IntakeRun, 'kind' | 'clients'> & { result: { perSecond: number; latency: Summary } }

/**
 * The intake as measured by the last run before the vault inventory (docs/benchmarks.md
 * of 2026-11-29, commit 213e710): requests then carried their bars, checked only against
 * bars already used. Kept here so every later report shows what the inventory costs.
 */
export const INTAKE_BEFORE_INVENTORY = {
  date: '2026-11-29',
  byClients: {
    1: { api: 61.0, apiP50: 15, apiP99: 43, sql: 294 },
    8: { api: 140, apiP50: 55, apiP99: 104, sql: 732 },
    32: { api: 159, apiP50: 194, apiP99: 315, sql: 655 },
  } as Record<number, { api: number; apiP50: number; apiP99: number; sql: number }>,
}

/** Section 1's note and comparison: the intake now reserves bars of the inventory. */
export function renderIntakeInventoryNote(p: { concurrencies: readonly number[]; runs: readonly IntakeFigures[]; line: Line; table: Table }): void {
  const { line, table } = p
  line(
    'Bars come from the inventory: every request names two bars that the run put on its bench vaults\' bar lists first (`stockMintBodies`, through `importBarList`), and the intake checks them against the vault\'s latest list, their weights against the list\'s, and reserves them (`lib/vault/reserveBars.ts`: row locks, `available` -> `reserved`) in the order\'s transaction, under the vault\'s shared lock. The raw-SQL runs reserve them the same way. Before the inventory (the run of ' +
      `${INTAKE_BEFORE_INVENTORY.date}) a request's bars were written as typed and checked only against bars already used:`,
  )
  line()
  const run = (kind: IntakeRun['kind'], c: number) => p.runs.find((x) => x.kind === kind && x.clients === c)
  table(
    ['clients', 'intake req/s now', `before (${INTAKE_BEFORE_INVENTORY.date})`, 'now / before', 'intake p50 / p99 now', 'before', 'raw SQL tx/s now', 'before'],
    p.concurrencies.map((c) => {
      const api = run('api', c)
      const sql = run('sql', c)
      const before = INTAKE_BEFORE_INVENTORY.byClients[c]
      return [
        String(c),
        api ? rate(api.result.perSecond) : 'n/a',
        before ? rate(before.api) : 'n/a',
        api && before ? num(ratio(api.result.perSecond, before.api), 2) : 'n/a',
        api ? p50p99(api.result.latency) : 'n/a',
        before ? `${before.apiP50} / ${before.apiP99}` : 'n/a',
        sql ? rate(sql.result.perSecond) : 'n/a',
        before ? rate(before.sql) : 'n/a',
      ]
    }),
  )
}

/** Section 5: a 100,000-bar list through the real route, and the web's memory meanwhile. */
export function renderBarListImport({ barListImport: b, line, table }: { barListImport: BarListImportResult | undefined; line: Line; table: Table }): void {
  line('## 5. Bar-list import: `POST /api/admin/vault/bar-lists`')
  line()
  if (!b) {
    line('Not measured in this run.')
    line()
    return
  }
  line(
    `One custodian's list of ${b.bars.toLocaleString('en-US')} bars as CSV (${num(b.csvBytes / 2 ** 20, 1)} MiB), POSTed by the admin through the real route before any other load: first with every bar new to the inventory, then the same bars as a later snapshot of the vault (every bar unchanged). Time from the request to the 201 (parse, the temporary table, the set-based statements, the commit). The web's memory: its resident set before the request, its peak resident set (VmHWM) right after it, and the largest proportional set size of its process tree sampled every 100 ms while the request ran.`,
  )
  line()
  table(
    ['list', 'bars added / unchanged', 'seconds', 'bars / s', 'web RSS before', 'web peak RSS (VmHWM)', 'web tree peak (PSS, sampled)'],
    b.runs.map((x) => [
      x.kind === 'new' ? 'new bars' : 'snapshot of the same bars',
      `${x.added.toLocaleString('en-US')} / ${x.unchanged.toLocaleString('en-US')}`,
      num(x.seconds, 2),
      rate(b.bars / x.seconds),
      mb(x.webRssBeforeKb),
      mb(x.webHwmAfterKb),
      mb(x.webPeakPssKb),
    ]),
  )
}
