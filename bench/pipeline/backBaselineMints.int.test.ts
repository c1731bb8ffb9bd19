import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { DEV_STAFF_EMAIL } from '@/lib/web/auth/seedDevUsers'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { backBaselineMints } from './backBaselineMints'

// The bench's baselines mint outside mintdesk; their tokens get bars behind them so the
// worker's check before signing does not refuse the pipeline's orders.

let t: TestDatabase

beforeAll(async () => {
  t = await createTestDatabase()
  await t.sql`insert into users (email, name, role) values (${DEV_STAFF_EMAIL}, 'Dev staff', 'staff')`
})

afterAll(async () => {
  await t.drop()
})

describe('backBaselineMints', () => {
  it('backs at least mints x amount with 400 oz bars of one confirmed order, and nothing for no mints', async () => {
    const amountWei = 802_168n * 10n ** 15n
    expect(await backBaselineMints(t.sql, { label: 'T', mints: 0, amountWei })).toEqual({ bars: 0 })
    const { bars } = await backBaselineMints(t.sql, { label: 'T', mints: 25, amountWei })
    const totals = await readReserveTotals(t.db)
    expect(totals.backingWei).toBeGreaterThanOrEqual(25n * amountWei)
    expect(totals.backingWei - 25n * amountWei).toBeLessThan(400n * 10n ** 18n)
    const [row] = await t.sql<{ orders: number; held: number; history: number }[]>`
      select (select count(*)::int from mint_orders where status = 'confirmed') as orders,
        (select count(*)::int from vault_bars where status = 'backing') as held,
        (select count(*)::int from mint_order_bars) as history`
    expect(row).toEqual({ orders: 1, held: bars, history: bars })
    const [order] = await t.sql<{ amount_wei: string }[]>`select amount_wei::text from mint_orders`
    expect(BigInt(order?.amount_wei ?? '0')).toBe(totals.backingWei)
  })
})
