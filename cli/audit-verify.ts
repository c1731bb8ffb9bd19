// Walks the audit log's hash chain and names the first row that breaks it (docs/decisions/060-audit-hash-chain.md):
// `node audit-verify.mjs` in the worker image, `npm run audit:verify` from a checkout (the local stack's database).
//
//   node audit-verify.mjs                           the database's rows (DATABASE_URL: a role that reads audit_log)
//   node audit-verify.mjs --file audit.jsonl        an export (GET /api/admin/audit/export?format=jsonl), offline
//   ... --expect-head 1234:<hash>                   and the chain still holds the head seen before (kept elsewhere)
//
// Exit 0 the chain holds, 1 it is broken (the row is named) or the run failed, 2 usage.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import type { AuditChainRow } from '@/lib/audit/auditRowHash'
import { readAuditChainRows } from '@/lib/audit/readAuditChainRows'
import { createCliLog, runCli } from './cli'
import { verifyAuditChain } from './verifyAuditChain'

const log = createCliLog('mintdesk-audit-verify')
const USAGE = 'usage: audit-verify [--file export.jsonl] [--expect-head SEQ:HASH]'

async function* jsonLines(file: string): AsyncGenerator<AuditChainRow> {
  for await (const line of createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  }))
    if (line.trim() !== '') yield JSON.parse(line) as AuditChainRow
}

async function main(): Promise<number> {
  let values: { file?: string; 'expect-head'?: string }
  try {
    ;({ values } = parseArgs({
      options: { file: { type: 'string' }, 'expect-head': { type: 'string' } },
      strict: true,
    }))
  } catch (err) {
    log('error', `${USAGE}: ${err instanceof Error ? err.message : String(err)}`)
    return 2
  }
  const expected = values['expect-head']?.split(':')
  if (
    expected &&
    (expected.length !== 2 || !/^\d+$/.test(expected[0] ?? '') || !/^[0-9a-f]{64}$/.test(expected[1] ?? ''))
  ) {
    log('error', `${USAGE}: --expect-head is a seq and a 64-hex hash, as a run printed them`)
    return 2
  }
  let result: Awaited<ReturnType<typeof verifyAuditChain>>
  const seen = new Map<string, string>()
  const remember = async function* (rows: AsyncIterable<AuditChainRow>) {
    for await (const row of rows) {
      if (expected && row.seq === expected[0]) seen.set(row.seq, row.hash)
      yield row
    }
  }
  if (values.file) {
    result = await verifyAuditChain(remember(jsonLines(values.file)))
  } else {
    const url = process.env.DATABASE_URL
    if (!url) {
      log('error', 'DATABASE_URL is not set: the database whose audit log to walk (any role that reads audit_log)')
      return 2
    }
    const sql = postgres(url, { max: 1, onnotice: () => {} })
    try {
      result = await verifyAuditChain(remember(readAuditChainRows(sql)))
    } finally {
      await sql.end({ timeout: 5 })
    }
  }
  if (result.broken) {
    log('error', `the audit chain is broken at row ${result.broken.seq}: ${result.broken.message}`, {
      rows: result.rows,
      broken: result.broken,
    })
    return 1
  }
  if (expected && seen.get(expected[0] ?? '') !== expected[1]) {
    log('error', `row ${expected[0]} is not the head seen before: the chain was rewritten from there`, {
      rows: result.rows,
      found: seen.get(expected[0] ?? '') ?? null,
    })
    return 1
  }
  log('info', `the audit chain holds: ${result.rows} rows`, { rows: result.rows, head: result.head })
  return 0
}

void runCli({ name: 'audit-verify', log, main })
