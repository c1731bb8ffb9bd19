import type postgres from 'postgres'
import { apiClientOf } from '../http/apiClientOf'
import type { HttpSession } from '../http/signIn'
import { readProcMemory } from '../system/proc'
import type { ProcessGroupsSource } from '../system/processGroups'
import { startMemorySampler } from '../system/startMemorySampler'

export type AuditExportResult = {
  /** the rows exported: those inserted here and those the runs before wrote */
  rows: number
  inserted: number
  /** the rows inserted through the chaining trigger, in statements of INSERT_CHUNK rows */
  insertSeconds: number
  /** request sent -> last byte read */
  exportSeconds: number
  bytes: number
  /** the web's resident set when each tenth of the rows had been read, kB (the memory curve of the stream) */
  webRssCurveKb: number[]
  webRssBeforeKb: number
  /** the largest proportional set size of the web's process tree sampled (every 100 ms) during the export, kB */
  webPeakPssKb: number
  /** the baseline: the same rows read in one query into the bench's own process, its resident set's growth, kB */
  bufferedRssGrowthKb: number
  bufferedSeconds: number
}

export type RunAuditExportParameters = {
  /** the database owner's connection: the rows are inserted as the desk's own writers would, through the trigger */
  sql: postgres.Sql
  /** an admin's session (the export is for admins and auditors) */
  session: HttpSession
  rows: number
  groups: ProcessGroupsSource
  log: (line: string) => void
}

const INSERT_CHUNK = 100_000

/**
 * The audit export at scale (docs/decisions/060-audit-hash-chain.md): `rows` audit rows inserted through the hash
 * chain's trigger, then `GET /api/admin/audit/export?format=csv` read to its end through the real route while the
 * web's memory is sampled, and its resident set taken at each tenth of the rows: a flat curve is the cursor at
 * work. Beside it, the baseline: the same rows read whole in one query, the way an export that buffers would.
 */
export async function runAuditExport(p: RunAuditExportParameters): Promise<AuditExportResult> {
  const t0 = performance.now()
  for (let from = 0; from < p.rows; from += INSERT_CHUNK) {
    const n = Math.min(INSERT_CHUNK, p.rows - from)
    await p.sql`
      insert into audit_log (actor_email, action, target_type, target_id, detail)
      select 'bench@mintdesk.local', 'bench.export', 'job', g::text, jsonb_build_object('n', g, 'note', 'bench row')
      from generate_series(${from + 1}::int, ${from + n}::int) g`
    p.log(`audit export: ${(from + n).toLocaleString('en-US')} of ${p.rows.toLocaleString('en-US')} rows chained`)
  }
  const insertSeconds = (performance.now() - t0) / 1000
  const [{ total } = { total: '0' }] = await p.sql<{ total: string }[]>`select count(*)::text as total from audit_log`
  const rows = Number(total)

  const webGroups: ProcessGroupsSource = () => p.groups().filter((g) => g.name === 'web')
  const webPid = () => webGroups()[0]?.roots[0] ?? 0
  const webRssBeforeKb = readProcMemory(webPid())?.rssKb ?? 0
  const sampler = startMemorySampler({ groups: webGroups, intervalMs: 100 })
  const t1 = performance.now()
  const {
    data: body,
    error,
    response,
  } = await apiClientOf(p.session).GET('/api/admin/audit/export', {
    params: { query: { format: 'csv' } },
    parseAs: 'stream',
  })
  if (response.status !== 200 || !body)
    throw new Error(`the audit export answered ${response.status}: ${JSON.stringify(error)}`)
  const curve: number[] = []
  let bytes = 0
  let lines = 0
  let nextTenth = 1
  const reader = body.getReader()
  for (;;) {
    const { done, value: chunk } = await reader.read()
    if (done) break
    bytes += chunk.byteLength
    for (const b of chunk) if (b === 10) lines++
    while (nextTenth <= 10 && lines - 1 >= (rows * nextTenth) / 10) {
      curve.push(readProcMemory(webPid())?.rssKb ?? 0)
      nextTenth++
    }
  }
  const exportSeconds = (performance.now() - t1) / 1000
  const web = sampler.stop().web
  if (lines - 1 !== rows) throw new Error(`the audit export gave ${lines - 1} rows of ${rows}`)

  const rssBefore = process.memoryUsage().rss
  const t2 = performance.now()
  const all = await p.sql`
    select chain_seq::text, id::text, at, actor_id, actor_email, action, target_type, target_id, detail::text,
      prev_hash, row_hash
    from audit_log order by chain_seq`
  const bufferedSeconds = (performance.now() - t2) / 1000
  const bufferedRssGrowthKb = Math.max(0, (process.memoryUsage().rss - rssBefore) / 1024)
  if (all.length !== rows) throw new Error(`the buffered read gave ${all.length} rows of ${rows}`)
  p.log(`audit export: ${rows} rows, ${(bytes / 2 ** 20).toFixed(0)} MiB in ${exportSeconds.toFixed(1)} s`)
  return {
    rows,
    inserted: p.rows,
    insertSeconds,
    exportSeconds,
    bytes,
    webRssCurveKb: curve,
    webRssBeforeKb,
    webPeakPssKb: web?.peakTreeKb ?? 0,
    bufferedRssGrowthKb,
    bufferedSeconds,
  }
}
