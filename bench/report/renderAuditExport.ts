import type { AuditExportResult } from '../audit/runAuditExport'
import { mb, num, rate } from './format'

type Line = (s?: string) => void
type Table = (head: string[], rows: string[][]) => void

/** The audit-export row: the whole chained log streamed as CSV through the real route, the web's memory meanwhile. */
export function renderAuditExport({
  auditExport: a,
  line,
  table,
}: {
  auditExport: AuditExportResult | undefined
  line: Line
  table: Table
}): void {
  line('## 5b. Audit export: `GET /api/admin/audit/export`')
  line()
  if (!a) {
    line('Not measured in this run.')
    line()
    return
  }
  line(
    `${a.rows.toLocaleString('en-US')} audit rows: ${a.inserted.toLocaleString('en-US')} inserted here, each chained by the trigger as it was written (${num(a.insertSeconds, 1)} s, ${rate(a.inserted / a.insertSeconds)} rows/s), the others written by the runs above; then exported as CSV by the admin through the real route and read to the last byte (${num(a.bytes / 2 ** 20, 0)} MiB). The web's resident set at each tenth of the rows read is the memory curve: the export reads through a cursor, 500 rows at a time. The baseline beside it reads the same rows whole in one query, as an export that buffers would, and gives the growth of its process's resident set.`,
  )
  line()
  table(
    ['export', 'seconds', 'rows / s', 'memory'],
    [
      [
        'streamed (the route)',
        num(a.exportSeconds, 1),
        rate(a.rows / a.exportSeconds),
        `web RSS ${mb(a.webRssBeforeKb)} before; at each tenth: ${a.webRssCurveKb.map((kb) => mb(kb)).join(', ')}; web tree peak (PSS) ${mb(a.webPeakPssKb)}`,
      ],
      [
        'baseline: one buffered query',
        num(a.bufferedSeconds, 1),
        rate(a.rows / a.bufferedSeconds),
        `its process grew by ${mb(a.bufferedRssGrowthKb)}`,
      ],
    ],
  )
}
