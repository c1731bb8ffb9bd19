import type postgres from 'postgres'
import { readAuditChainRows } from '@/lib/audit/readAuditChainRows'
import { logServerError } from '@/lib/web/errors/toErrorResponse'
import { auditCsvHeader, auditCsvLine, auditJsonLine } from './auditExportFormats'
import type { ExportAuditQuery } from './schemas'

/** rows per chunk written: one batch of the cursor */
const ROWS_PER_CHUNK = 500

/**
 * GET /api/admin/audit/export: the audit rows of the window in chain order (oldest first), streamed as CSV or JSON
 * Lines with every row's hash and its previous row's (./auditExportFormats.ts), read through a cursor as the
 * client takes them: the memory of one chunk, whatever the number of rows. A download (Content-Disposition); `npm
 * run audit:verify -- --file` checks a JSON Lines export offline.
 */
export function exportAuditResponse(sql: postgres.Sql, q: ExportAuditQuery): Response {
  const rows = readAuditChainRows(sql, { from: q.from, to: q.to, batchSize: ROWS_PER_CHUNK })
  const line = q.format === 'csv' ? auditCsvLine : auditJsonLine
  const encoder = new TextEncoder()
  let started = false
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = !started && q.format === 'csv' ? auditCsvHeader() : ''
        started = true
        try {
          for (let i = 0; i < ROWS_PER_CHUNK; i++) {
            const next = await rows.next()
            if (next.done) {
              if (text) controller.enqueue(encoder.encode(text))
              controller.close()
              return
            }
            text += line(next.value)
          }
        } catch (error) {
          // the 200 is sent: the download is cut short (the client sees a failed transfer), the log says why
          logServerError({ msg: 'audit export cut short', status: 500, code: 'internal_error', err: error })
          controller.error(error)
          return
        }
        controller.enqueue(encoder.encode(text))
      },
      async cancel() {
        await rows.return(undefined)
      },
    },
    { highWaterMark: 1 },
  )
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '')
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="mintdesk-audit-${stamp}Z.${q.format}"`,
      'cache-control': 'no-store, no-transform',
    },
  })
}
