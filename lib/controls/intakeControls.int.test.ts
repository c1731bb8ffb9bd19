import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { ozToWei } from '@/lib/money/ozToWei'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'

// The controls at intake (createMintOrder, as the route calls it): what is refused
// writes nothing, and concurrent intakes never pass the rolling 24 h cap together.

let t: TestDatabase
let u: TestUsers
let serial = 0

beforeAll(async () => {
  t = await createTestDatabase({ max: 30 })
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT])
})

afterAll(async () => {
  await t.drop()
})

/** a request of one 401.084 oz bar on the vault's list */
async function request(to = TEST_RECIPIENT) {
  const r = buildMintRequest({ to, bars: [{ serial: `INT-${++serial}` }] })
  await stockBarsOf(t.db, r)
  return r
}

const create = async (to?: string) =>
  createMintOrder(t.db, {
    session: intakeSession(u.staff),
    maxAttempts: 5,
    request: await request(to),
  })

async function counts() {
  const [row] = await t.db.execute<{ orders: number; reserved: number; jobs: number }>(sql`
    select (select count(*)::int from mint_orders) as orders,
           (select count(*)::int from vault_bars where status <> 'available') as reserved,
           (select count(*)::int from graphile_worker._private_jobs) as jobs`)
  return row
}

describe('createMintOrder with the controls', () => {
  it('a recipient off the allowlist: RecipientNotAllowedError, nothing written', async () => {
    const before = await counts()
    await expect(create('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')).rejects.toBeInstanceOf(RecipientNotAllowedError)
    expect(await counts()).toEqual(before)
  })

  it('over the per-order limit: OverLimitError, nothing written', async () => {
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('401.083'), dailyCapWei: null })
    const before = await counts()
    await expect(create()).rejects.toMatchObject({ code: 'over_limit', limit: 'max_order' })
    expect(await counts()).toEqual(before)
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
  })

  it('12 concurrent intakes of 401.084 oz under a cap of 5 of them: exactly 5 win, the others are OverLimitError', async () => {
    await t.db.execute(sql`update mint_orders set status = 'failed'`) // earlier orders count no more
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('401.084') * 5n + ozToWei('100') })
    const requests = await Promise.all(Array.from({ length: 12 }, () => request()))
    const results = await Promise.allSettled(
      requests.map((r) =>
        createMintOrder(t.db, {
          session: intakeSession(u.staff),
          maxAttempts: 5,
          request: r,
        }),
      ),
    )
    const won = results.filter((x) => x.status === 'fulfilled')
    const lost = results.flatMap((x) => (x.status === 'rejected' ? [x.reason as unknown] : []))
    expect(won).toHaveLength(5)
    expect(lost).toHaveLength(7)
    for (const e of lost) expect(e).toBeInstanceOf(OverLimitError)
    const [row] = await t.db.execute<{ n: number; total: string }>(sql`
      select count(*)::int as n, sum(amount_wei)::text as total from mint_orders
      where status = 'awaiting_approval'`)
    expect(row).toEqual({ n: 5, total: (ozToWei('401.084') * 5n).toString() })
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
  })
})
