import { drizzle } from 'drizzle-orm/postgres-js'
import { type Address, type Hex, recoverTypedDataAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '@/db/schema'
import { devKey } from '@/lib/keys/devKeys'
import { buildMintIntentTypedData } from '@/lib/mint/buildMintIntent'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { readOrderIntent } from '@/lib/web/approvals/readOrderIntent'
import { DEV_STAFF_EMAIL } from '@/lib/web/auth/seedDevUsers'
import { DEV_MINTER_DOMAIN } from '@/scripts/stack/devChain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { backBaselineMints } from './backBaselineMints'

// The bench's baselines relay mints outside mintdesk's worker: each gets an order of its own
// with a bar on a custodian-signed list and the dev approver's signature of its intent, and
// their tokens have bars behind them so the worker's check before signing does not refuse the
// pipeline's orders.

let t: TestDatabase
const recipients: Address[] = [
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
]

beforeAll(async () => {
  t = await createTestDatabase()
  await t.sql`insert into users (email, name, role) values (${DEV_STAFF_EMAIL}, 'Dev staff', 'staff')`
  await ensureDevApprovers(t.db)
})

afterAll(async () => {
  await t.drop()
})

describe('backBaselineMints', () => {
  it('makes one confirmed order per mint, each holding a 400 oz bar of a signed list, its intent signed by the dev approver', async () => {
    const p = { label: 'T', recipients, domain: DEV_MINTER_DOMAIN }
    expect(await backBaselineMints(t.sql, { ...p, mints: 0 })).toEqual({ orderIds: [], bars: 0 })
    const { orderIds, bars } = await backBaselineMints(t.sql, { ...p, mints: 25 })
    expect(bars).toBe(25)
    expect(new Set(orderIds).size).toBe(25)

    const [row] = await t.sql<{ orders: number; held: number; history: number; lists: number; total: string }[]>`
      select (select count(*)::int from mint_orders where status = 'confirmed') as orders,
        (select count(*)::int from vault_bars where status = 'backing' and order_id is not null) as held,
        (select count(*)::int from mint_order_bars) as history,
        (select count(*)::int from bar_lists where custodian_signature is not null) as lists,
        (select sum(amount_wei)::text from mint_orders) as total`
    expect(row).toEqual({ orders: 25, held: 25, history: 25, lists: 1, total: expect.any(String) })
    const totals = await readReserveTotals(t.db)
    expect(totals.backingWei).toBe(BigInt(row?.total ?? '0'))
    expect(totals.backingWei).toBeGreaterThan(25n * 399n * 10n ** 18n)

    const db = drizzle(t.sql, { schema })
    for (const orderId of orderIds) {
      const intent = await readOrderIntent(db, { orderId })
      expect(intent?.bars).toHaveLength(1)
      const [s] = await t.sql<{ signature: string; signer_address: string }[]>`
        select signature, signer_address from mint_order_signatures where order_id = ${orderId}::uuid`
      expect(s?.signer_address).toBe(devKey('approver').address.toLowerCase())
      if (!intent || !s) throw new Error('no intent or signature')
      const signer = await recoverTypedDataAddress({
        ...buildMintIntentTypedData(DEV_MINTER_DOMAIN, intent),
        signature: s.signature as Hex,
      })
      expect(signer).toBe(devKey('approver').address)
    }
  })
})
