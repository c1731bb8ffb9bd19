import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './db'

describe('test database', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
  })
  afterAll(async () => {
    await t.drop()
  })

  it('is migrated: our tables and graphile-worker schema exist', async () => {
    const rows = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from information_schema.tables where table_name in ('mint_orders','job_events','signers')`,
    )
    expect(rows[0]?.n).toBe(3)
    const gw = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs`)
    expect(gw[0]?.n).toBe(0)
  })

  it('drop() names a pool left open, after waiting out backends that are only slow to leave', async () => {
    const other = await createTestDatabase()
    const leak = postgres(other.url, { max: 1, connection: { application_name: 'leaky-pool' }, onnotice: () => {} })
    await leak`select 1`
    try {
      await expect(other.drop()).rejects.toThrow(/a pool was left open on test database t_[0-9a-f]+: leaky-pool/)
    } finally {
      await leak.end({ timeout: 1 }).catch(() => {})
    }
  })
})
