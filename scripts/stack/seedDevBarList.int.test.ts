import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { DEV_BAR_LIST_METADATA, generateDevBars, seedDevBarList } from './seedDevBarList'

let t: TestDatabase

beforeAll(async () => {
  t = await createTestDatabase()
})

afterAll(async () => {
  await t.drop()
})

describe('seedDevBarList', () => {
  it('seeds 2,000 realistic dev bars for LDN-1 once, labelled as dev data', async () => {
    const lines: string[] = []
    const first = await seedDevBarList(t.db, { log: (l) => lines.push(l) })
    expect(first).toMatchObject({ seeded: true, result: { vault: 'LDN-1', added: 2_000 } })
    expect(lines.join('\n')).toContain('DEV DATA')
    const [list] = await t.db.execute<{ metadata: unknown; bar_count: number }>(
      sql`select metadata, bar_count from bar_lists where vault = 'LDN-1'`,
    )
    expect(list).toEqual({ metadata: DEV_BAR_LIST_METADATA, bar_count: 2_000 })
    const [stats] = await t.db.execute<{ min: string; max: string; finenesses: string[]; refiners: number }>(sql`
      select min(gross_oz)::text as min, max(gross_oz)::text as max, array_agg(distinct fineness::text order by fineness::text) as finenesses,
             count(distinct refiner)::int as refiners
      from vault_bars where vault = 'LDN-1'`)
    expect(Number(stats?.min)).toBeGreaterThanOrEqual(350)
    expect(Number(stats?.max)).toBeLessThanOrEqual(430)
    expect(stats?.finenesses).toEqual(['995.00', '999.50', '999.90'])
    expect(stats?.refiners).toBeGreaterThanOrEqual(5)

    expect(await seedDevBarList(t.db)).toEqual({ seeded: false, reason: 'vault LDN-1 has a bar list already' })
    const [count] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from bar_lists`)
    expect(count?.n).toBe(1)
  })

  it('generates the same bars every time, with distinct serials', () => {
    const a = generateDevBars(2_000)
    expect(generateDevBars(2_000)).toEqual(a)
    expect(new Set(a.map((b) => b.serial)).size).toBe(2_000)
  })
})
