import type { BarListImportResult } from '../vault/runBarListImport'
import { mb, num, rate } from './format'

type Line = (s?: string) => void
type Table = (head: string[], rows: string[][]) => void

/** The bar-list row: a 100,000-bar list through the real route, and the web's memory meanwhile. */
export function renderBarListImport({
  barListImport: b,
  line,
  table,
}: {
  barListImport: BarListImportResult | undefined
  line: Line
  table: Table
}): void {
  line('## 5. Bar-list import: `POST /api/admin/vault/bar-lists`')
  line()
  if (!b) {
    line('Not measured in this run.')
    line()
    return
  }
  line(
    `One custodian's list of ${b.bars.toLocaleString('en-US')} bars as CSV (${num(b.csvBytes / 2 ** 20, 1)} MiB), POSTed by the admin through the real route after every other run (its peak memory is its own, not the web's figure of section 4): first with every bar new to the inventory, then the same bars as a later snapshot of the vault (every bar unchanged). Time from the request to the 201 (parse, the temporary table, the set-based statements, the commit). The web's memory: its resident set before the request, its peak resident set (VmHWM) right after it, and the largest proportional set size of its process tree sampled every 100 ms while the request ran.`,
  )
  line()
  table(
    [
      'list',
      'bars added / unchanged',
      'seconds',
      'bars / s',
      'web RSS before',
      'web peak RSS (VmHWM)',
      'web tree peak (PSS, sampled)',
    ],
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
