import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BarListUnverifiedError } from '@/lib/errors/approvals'
import { importBarList } from '@/lib/web/vault/importBarList'
import { devCustodianSignature } from '@/scripts/stack/devCustodianSignature'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { buildBarList, generateTestBars } from '@/tests/helpers/barLists'
import { createStatementLogDb, type StatementLogDb } from '@/tests/helpers/createStatementLogDb'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { readLatestBarList } from '../db/readLatestBarList'
import { verifyBarList } from './verifyBarList'

// verifyBarList against a real database (its statements logged by the driver) and a real
// chain whose GoldMinter has the dev custodian (key 12) registered: one verification per list
// at a time, a success cached, a failure never.

let t: TestDatabase
let chain: ChainFixture
let logged: StatementLogDb

beforeAll(async () => {
  t = await createTestDatabase()
  chain = await startChainFixture()
  logged = createStatementLogDb({ url: t.url, max: 4, name: 'verify-bar-list-logged' })
})

afterAll(async () => {
  await logged?.close()
  await chain?.stop()
  await t?.drop()
})

const ctx = () => ({ chain: chain.publicClient, chainId: chain.chainId, minterAddress: chain.minterAddress })

/** A vault with one signed list of `count` bars; the stored list as the worker reads it. */
async function listedVault(vault: string, count: number) {
  const list = buildBarList({ vault, bars: generateTestBars({ count, prefix: vault }) })
  const domain = { chainId: chain.chainId, verifyingContract: chain.minterAddress }
  await importBarList(t.db, { list, actor: null, custodian: await devCustodianSignature(list, domain) })
  const stored = await readLatestBarList(t.db, { vault })
  if (!stored) throw new Error(`no list stored for ${vault}`)
  return stored
}

/** How many statements so far read a list's bars (listBarListBars: one a page); the tests run one at a time */
function barReads(): number {
  return logged.statements().filter((q) => q.includes('from vault_bars') && q.includes('last_list_id')).length
}

describe('verifyBarList', () => {
  it('concurrent verifications of one list read and hash its bars once, and share the result', async () => {
    const stored = await listedVault('VER-ONCE', 300)
    const before = barReads()
    const results = await Promise.all(
      Array.from({ length: 8 }, () => verifyBarList(ctx(), logged.db, { vault: 'VER-ONCE', list: stored })),
    )
    // 300 bars: one page, so one read in all for the eight callers
    expect(barReads() - before).toBe(1)
    for (const r of results) expect(r).toBe(results[0])
    expect(results[0]).toMatchObject({ listId: stored.id, barList: { barsRoot: stored.barsRoot } })
    expect(results[0]?.leaves.length).toBe(300 * 32)
    // verified once, cached: a later call reads no bar
    await verifyBarList(ctx(), logged.db, { vault: 'VER-ONCE', list: stored })
    expect(barReads() - before).toBe(1)
  })

  it('a failed verification is shared by the callers of the moment, never cached: the next call verifies again', async () => {
    const vault = 'VER-FAIL'
    const stored = await listedVault(vault, 20)
    // one bar 0.001 oz lighter behind the list's back: its bars no longer give the signed root and total
    await t.db.execute(
      sql`update vault_bars set fine_oz = fine_oz - 0.001 where vault = ${vault} and serial = 'VER-FAIL000007'`,
    )
    const before = barReads()
    const refused = await Promise.allSettled(
      Array.from({ length: 4 }, () => verifyBarList(ctx(), logged.db, { vault, list: stored })),
    )
    for (const r of refused) {
      expect(r.status).toBe('rejected')
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(BarListUnverifiedError)
    }
    expect(barReads() - before).toBe(1)

    await expect(verifyBarList(ctx(), logged.db, { vault, list: stored })).rejects.toBeInstanceOf(
      BarListUnverifiedError,
    )
    expect(barReads() - before).toBe(2)

    // the bar put back: the list verifies now (the refusals left nothing behind), and is then cached
    await t.db.execute(
      sql`update vault_bars set fine_oz = fine_oz + 0.001 where vault = ${vault} and serial = 'VER-FAIL000007'`,
    )
    await expect(verifyBarList(ctx(), logged.db, { vault, list: stored })).resolves.toMatchObject({
      listId: stored.id,
    })
    expect(barReads() - before).toBe(3)
    await verifyBarList(ctx(), logged.db, { vault, list: stored })
    expect(barReads() - before).toBe(3)
  })
})
