import { sql } from 'drizzle-orm'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { DEV_RECIPIENTS, seedDevRecipients } from './seedDevRecipients'

let t: TestDatabase

beforeAll(async () => {
  t = await createTestDatabase()
})

afterAll(async () => {
  await t.drop()
})

describe('seedDevRecipients', () => {
  it("lists anvil's accounts 1 to 9 of the standard test mnemonic", () => {
    const mnemonic = 'test test test test test test test test test test test junk'
    const derived = Array.from({ length: 9 }, (_, i) =>
      mnemonicToAccount(mnemonic, { addressIndex: i + 1 }).address.toLowerCase(),
    )
    expect(DEV_RECIPIENTS).toEqual(derived)
  })

  it('seeds them once, labelled "dev customer N", and leaves the limits unset', async () => {
    expect(await seedDevRecipients(t.db)).toEqual({ seeded: 9 })
    const rows = await t.db.execute<{ address: string; label: string }>(
      sql`select address, label from allowed_recipients order by label`,
    )
    expect(rows.map((r) => r.label)).toEqual(Array.from({ length: 9 }, (_, i) => `dev customer ${i + 1}`))
    expect(await seedDevRecipients(t.db)).toEqual({ seeded: 0 })
    // an address an admin removed stays removed at the next start
    await t.db.execute(sql`delete from allowed_recipients where address = ${DEV_RECIPIENTS[0]}`)
    expect(await seedDevRecipients(t.db)).toEqual({ seeded: 0 })
    const [n] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from allowed_recipients`)
    expect(n?.n).toBe(8)
    const limits = await t.db.execute(
      sql`select * from mint_limits where max_order_wei is not null or daily_cap_wei is not null`,
    )
    expect(limits.length).toBe(0)
  })
})
