import { and, eq, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { createWalletClient, type Hex, http } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { jobEvents, mintOrders, signerNonces, signers, unreconciledEvents } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { readReserveFigures } from '@/lib/reserves/readReserveFigures'
import { readTotalSupply } from '@/lib/reserves/readTotalSupply'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/** orders minted between the copy and the restore: 10 here, 50 in npm run test:chaos (RESTORE_DRILL_ORDERS) */
const N = Number(process.env.RESTORE_DRILL_ORDERS ?? 10)

/**
 * The restore drill, short form (docs/reliability.md): the database goes back, the chain does not.
 * 1. the database is copied with no session on it: CREATE DATABASE ... TEMPLATE, a physical copy of the database's
 *    files on the same server (what copying the data folder with Postgres stopped gives, for one database);
 * 2. N orders, pending in the copy, are minted and confirmed;
 * 3. the copy is put back in place of the database (the chain kept);
 * 4. the worker starts again.
 * Expected: every signer's next_nonce resynced to the chain, the N orders confirmed again from their Minted events
 * with exactly one Minted per order id, and new orders confirming. Then a mint outside mintdesk (anvil impersonates
 * GoldMinter, the token's minter-role holder, and calls GoldToken.mint directly) is listed as unreconciled by the
 * periodic pass, and the reserves show the shortfall it makes (GoldMinter then refuses mints above the reserve,
 * so it comes last).
 */
describe('restore drill: the database goes back ten minutes, the chain does not', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined
  let db: DbClient | undefined
  const to = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]
  const snapshot = `${Math.random().toString(36).slice(2, 8)}_snap`

  const admin = () => postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} })
  const open = () => {
    db = createDb({ url: t.url, max: 4, name: 'restore-drill' })
    return db.db
  }
  const closeDb = async () => {
    await db?.close()
    db = undefined
  }
  const start = (name: string) =>
    startWorkerProcess({ name, env: workerEnv({ databaseUrl: t.url, chain, env: { NONCE_HEALTH_MS: '1000' } }) })
  const mintedIds = async () =>
    (
      await chain.publicClient.getContractEvents({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        eventName: 'Minted',
        fromBlock: 0n,
        strict: true,
      })
    ).map((l) => l.args.orderId)

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase({ max: 1 }), startChainFixture({ signers: 2 })])
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await closeDb()
    const a = admin()
    await a.unsafe(`drop database if exists ${t.name}${snapshot} with (force)`).finally(() => a.end())
    await chain?.stop()
    await t?.drop()
  })

  it('resyncs every nonce, finds the forgotten mints again without minting twice, lists the outside mint', async () => {
    // the desk as it was: a first order confirmed, so the copy holds used nonces and a cursor
    await t.close()
    let d = open()
    worker = start('before')
    await worker.waitForLine((l) => l.msg === 'worker started')
    const [first] = await createTestOrders(d, { count: 1, to })
    await waitFor(
      async () => (await d.select().from(mintOrders).where(eq(mintOrders.id, first.id)))[0]?.status === 'confirmed',
      { timeoutMs: 30_000, what: `the first order confirmed (log: ${worker.logFile})` },
    )
    await worker.stop('SIGTERM')
    await closeDb()

    // the N orders of the next ten minutes: requested and approved (pending, their mint_send queued), none minted yet
    d = open()
    const gap = await createTestOrders(d, { count: N, to })
    await closeDb()

    // 1. the copy
    const a = admin()
    try {
      await a.unsafe(`create database ${t.name}${snapshot} template ${t.name}`)
    } finally {
      await a.end()
    }

    // 2. the N orders minted after it
    d = open()
    worker = start('gap')
    await worker.waitForLine((l) => l.msg === 'worker started')
    await waitFor(
      async () =>
        (await d.select({ status: mintOrders.status }).from(mintOrders)).filter((o) => o.status === 'confirmed')
          .length ===
        N + 1,
      { timeoutMs: 60_000 + N * 1_000, what: `the ${N} orders of the gap confirmed (log: ${worker.logFile})` },
    )
    await worker.stop('SIGTERM')
    const chainNoncesAfterGap = new Map<string, bigint>()
    for (const s of await d.select().from(signers)) chainNoncesAfterGap.set(s.address, s.nextNonce)
    await closeDb()

    // 3. the copy put back, the chain kept
    const b = admin()
    try {
      await b.unsafe(`drop database ${t.name} with (force)`)
      await b.unsafe(`alter database ${t.name}${snapshot} rename to ${t.name}`)
    } finally {
      await b.end()
    }
    d = open()
    const restored = await d.select().from(mintOrders)
    expect(restored.filter((o) => o.status === 'confirmed').map((o) => o.id)).toEqual([first.id])
    expect(restored.filter((o) => o.status === 'pending')).toHaveLength(N)
    for (const s of await d.select().from(signers))
      expect(s.nextNonce, `${s.address} rolled back`).toBeLessThanOrEqual(chainNoncesAfterGap.get(s.address) ?? 0n)

    // 4. start again
    const restartedAt = Date.now()
    worker = start('after')
    await worker.waitForLine((l) => l.msg === 'worker started')
    const checked = await worker.waitForLine((l) => l.msg === 'signer nonces checked against the chain')
    const signerRows = await d.select().from(signers)
    for (const s of signerRows) {
      const chainNonce = BigInt(
        await chain.publicClient.getTransactionCount({ address: s.address as Hex, blockTag: 'pending' }),
      )
      expect(s.nextNonce, `${s.address} resynced`).toBe(chainNonce)
    }
    expect(JSON.stringify(checked.signers)).toContain('"resynced":true')

    await waitFor(
      async () =>
        (await d.select({ status: mintOrders.status }).from(mintOrders)).every((o) => o.status === 'confirmed'),
      { timeoutMs: 60_000 + N * 500, what: `the gap's orders confirmed from the chain (log: ${worker.logFile})` },
    )
    const reconciledEvents = await d
      .select()
      .from(jobEvents)
      .where(and(eq(jobEvents.event, 'reconciled'), eq(jobEvents.task, TASK.nonceResync)))
    expect(new Set(reconciledEvents.map((e) => e.orderId))).toEqual(new Set(gap.map((o) => o.id)))
    for (const o of gap) {
      const [row] = await d.select().from(mintOrders).where(eq(mintOrders.id, o.id))
      expect(row?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(row?.blockNumber).not.toBeNull()
    }
    const resyncedNonces = await d.select().from(signerNonces).where(eq(signerNonces.use, 'resync'))
    expect(resyncedNonces.length).toBeGreaterThanOrEqual(1)
    expect(resyncedNonces.every((n) => n.state === 'mined')).toBe(true)

    // new mints confirm
    const fresh = await createTestOrders(d, { count: 3, to })
    await waitFor(
      async () =>
        (await d.select({ id: mintOrders.id, status: mintOrders.status }).from(mintOrders))
          .filter((o) => fresh.some((f) => f.id === o.id))
          .every((o) => o.status === 'confirmed'),
      { timeoutMs: 60_000, what: `new orders confirmed after the restore (log: ${worker.logFile})` },
    )
    console.log(
      `[restoreDrill] ${N} orders of the gap confirmed again from the chain, each minted once; every signer resynced; new mints confirmed ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`,
    )

    // a mint outside mintdesk, after the restart: the periodic pass lists it
    const outsideId = `0x${'ab'.repeat(32)}` as Hex
    const outsideWei = 7n * 10n ** 18n
    await chain.testClient.impersonateAccount({ address: chain.minterAddress })
    await chain.testClient.setBalance({ address: chain.minterAddress, value: 10n ** 18n })
    const asMinter = createWalletClient({ chain: chain.chain, transport: http(chain.rpcUrl) })
    const outsideHash = await asMinter.writeContract({
      account: chain.minterAddress,
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'mint',
      args: [to[0], outsideWei, outsideId],
    })
    await chain.publicClient.waitForTransactionReceipt({ hash: outsideHash })
    // the token refuses a second mint of an order id, whoever asks
    await expect(
      chain.publicClient.simulateContract({
        account: chain.minterAddress,
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'mint',
        args: [gap[0].toAddress, gap[0].amountWei, orderIdToBytes32(gap[0].id)],
      }),
    ).rejects.toThrow(/OrderAlreadyMinted/)
    await chain.testClient.stopImpersonatingAccount({ address: chain.minterAddress })

    // the outside mint: listed, and the reserves show its shortfall
    await waitFor(async () => (await d.select().from(unreconciledEvents)).length > 0, {
      timeoutMs: 30_000,
      what: `the periodic nonce_resync lists the outside mint (log: ${worker.logFile})`,
    })
    const open_ = await d.select().from(unreconciledEvents)
    expect(open_.map((e) => ({ event: e.event, txHash: e.txHash, amountWei: e.amountWei }))).toEqual([
      { event: 'Minted', txHash: outsideHash, amountWei: outsideWei.toString() },
    ])
    const supply = await readTotalSupply(chain.publicClient, { tokenAddress: chain.tokenAddress })
    const figures = await readReserveFigures(d, { supply })
    expect(figures.status).toBe('shortfall')
    expect(figures.shortfallWei).toBe(outsideWei)

    // exactly one Minted per order id
    const ids = await mintedIds()
    expect(ids.length).toBe(new Set(ids).size)
    for (const o of [first, ...gap, ...fresh])
      expect(
        ids.filter((x) => x === orderIdToBytes32(o.id)),
        o.id,
      ).toHaveLength(1)
    expect(await d.execute(sql`select 1 from job_events where event = 'dead'`)).toHaveLength(0)
  }, 300_000)
})
