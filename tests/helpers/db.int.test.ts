import { sql } from 'drizzle-orm'
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
})
