import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyAuditChain } from '@/cli/verifyAuditChain'
import { createDb, type DbClient } from '@/db/client'
import { recordAudit } from '@/lib/admin/recordAudit'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { workerProgram } from '@/tests/helpers/workerProcess'
import { readAuditChainRows } from './readAuditChainRows'

// The audit log's hash chain (docs/decisions/060-audit-hash-chain.md) on a real Postgres: written by the trigger in
// each row's transaction as the web's role writes rows, concurrently; then rewritten, rehashed and deleted as the
// database's owner would, and caught each time by the walk and by `audit-verify`, the command an auditor runs.

let t: TestDatabase
let web: DbClient
let reader: postgres.Sql

const ROOT = path.resolve(import.meta.dirname, '..', '..')

function auditVerify(): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [...workerProgram('audit-verify')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.roleUrl('worker') },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: run.status, output: `${run.stdout}${run.stderr}` }
}

const walk = () => verifyAuditChain(readAuditChainRows(reader, { batchSize: 7 }))

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 8, name: 'audit-chain-as-web' })
  reader = postgres(t.roleUrl('worker'), { max: 1, onnotice: () => {} })
  // 40 actions at once, each in its own transaction with other work, as the web's role
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      web.db.transaction(async (tx) => {
        await recordAudit(tx, {
          actor: { id: '00000000-0000-4000-8000-000000000001', email: 'admin@mintdesk.local' },
          action: 'job.retry',
          targetType: 'job',
          targetId: String(i),
          detail: { attempt: i, note: 'ünïcode, "quotes" and =1+1' },
        })
        await tx.execute(sql`select pg_sleep(0.002)`)
      }),
    ),
  )
}, 120_000)

afterAll(async () => {
  await reader?.end()
  await web?.close()
  await t?.drop()
})

describe('the audit hash chain', () => {
  it('each row is chained in its transaction: seq 1 to 40 without a gap, every hash as audit_row_hash wrote it', async () => {
    const rows = await t.sql<{ seq: string }[]>`select chain_seq::text as seq from audit_log order by chain_seq`
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)))
    const result = await walk()
    expect(result.broken).toBeNull()
    expect(result.rows).toBe(40)
    expect(result.head?.seq).toBe('40')
    expect(auditVerify()).toMatchObject({ code: 0 })
  }, 60_000)

  it('what the caller gives for the chain is overwritten', async () => {
    await web.db.execute(sql`
      insert into audit_log (actor_email, action, target_type, target_id, chain_seq, prev_hash, row_hash)
      values ('admin@mintdesk.local', 'job.cancel', 'job', '41', 1, ${'0'.repeat(64)}, ${'f'.repeat(64)})`)
    expect((await walk()).broken).toBeNull()
  })

  it("the web's role can neither rewrite nor delete a row", async () => {
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'allowed',
        (e: unknown) => String((e as { cause?: unknown }).cause ?? e),
      )
    expect(await refusal(web.db.execute(sql`update audit_log set target_id = 'x' where chain_seq = 3`))).toMatch(
      /permission denied/,
    )
    expect(await refusal(web.db.execute(sql`delete from audit_log where chain_seq = 3`))).toMatch(/permission denied/)
  })

  it("the owner's rewrite of a row is named, by the walk and by audit-verify", async () => {
    await t.sql`update audit_log set detail = '{"attempt": 0}'::jsonb where chain_seq = 7`
    expect((await walk()).broken).toMatchObject({ seq: '7', reason: 'rewritten' })
    const run = auditVerify()
    expect(run.code).toBe(1)
    expect(run.output).toContain('the audit chain is broken at row 7')
  }, 60_000)

  it('a rewritten row rehashed: the row after it no longer links', async () => {
    await t.sql`update audit_log a set row_hash = public.audit_row_hash(a) where chain_seq = 7`
    expect((await walk()).broken).toMatchObject({ seq: '8', reason: 'unlinked' })
  })

  it('a deleted row is named where the chain skips it', async () => {
    await t.sql`delete from audit_log where chain_seq in (7, 8)`
    expect((await walk()).broken).toMatchObject({ seq: '9', reason: 'missing_rows' })
  })
})
