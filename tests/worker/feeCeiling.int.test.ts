import { and, asc, eq, sql } from 'drizzle-orm'
import { parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { readQueueMetrics } from '@/worker/ops/readQueueMetrics'

/**
 * The fee ceiling (MAX_FEE_PER_GAS, MAX_PRIORITY_FEE), against anvil: while the
 * chain asks for more than the ceiling, the worker signs and pays nothing, the order waits
 * without spending attempts or losing its nonce, and the wait is visible ('fee_capped',
 * the fee-capped gauge). A worker restarted with a higher ceiling mints it exactly once.
 */
describe('the fee ceiling', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]

  const eventsOf = (orderId: string) =>
    t.db.select().from(jobEvents).where(eq(jobEvents.orderId, orderId)).orderBy(asc(jobEvents.id))
  const namesOf = async (orderId: string) => (await eventsOf(orderId)).map((e) => e.event)
  const orderRow = async (orderId: string) =>
    (await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId)))[0]
  const txsOf = (orderId: string) =>
    t.db.select().from(chainTxs).where(eq(chainTxs.orderId, orderId)).orderBy(asc(chainTxs.createdAt))
  const baseFee = async () => (await chain.publicClient.getBlock({ blockTag: 'latest' })).baseFeePerGas ?? 0n
  const start = async (name: string, env: Record<string, string>) => {
    // the nonce health check would re-send a stuck transaction's bytes: not under test here
    worker = startWorkerProcess({
      name,
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: { FEE_CAPPED_RETRY_MS: '300', NONCE_STALL_AFTER_MS: '600000', ...env },
      }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterEach(async () => {
    await worker?.stop('SIGTERM')
    worker = undefined
    await chain.testClient.setAutomine(true)
  })
  afterAll(async () => {
    await chain?.stop()
    await t?.drop()
  })

  it('below the base fee: nothing is signed or sent and the order waits; a higher ceiling mints it exactly once', async () => {
    const base = await baseFee()
    expect(base).toBeGreaterThan(1000n)
    await start('capped', { MAX_FEE_PER_GAS: '1000' })
    const [order] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await namesOf(order.id)).includes('fee_capped'), {
      timeoutMs: 20_000,
      what: `a fee_capped event (log: ${worker?.logFile})`,
    })
    // several looks later (one every FEE_CAPPED_RETRY_MS)
    await waitFor(async () => (await namesOf(order.id)).filter((e) => e === 'started').length >= 4, {
      timeoutMs: 20_000,
      what: 'a few looks at the fees',
    })
    await sleep(300)

    const events = await eventsOf(order.id)
    const names = events.map((e) => e.event)
    // one event per wait, not one per look; nothing failed, nothing signed
    expect(names.filter((e) => e === 'fee_capped')).toHaveLength(1)
    for (const never of ['failed', 'retrying', 'dead', 'nonce_reserved', 'signed', 'broadcast'])
      expect(names, never).not.toContain(never)
    expect(events.find((e) => e.event === 'fee_capped')?.detail).toMatch(
      /base fee \d+ \+ tip \d+ wei is above the ceiling \(MAX_FEE_PER_GAS 1000, MAX_PRIORITY_FEE unset\): nothing signed/,
    )
    expect(await orderRow(order.id)).toMatchObject({ status: 'pending', nonce: null })
    expect(await txsOf(order.id)).toEqual([])
    expect(await t.db.select().from(signerNonces)).toEqual([])
    expect(
      await chain.publicClient.getTransactionCount({ address: chain.signerAddresses[0], blockTag: 'pending' }),
    ).toBe(0)
    // no attempt spent: every look is its own job, each succeeded on its first attempt; the next one waits
    const records = await t.db
      .select()
      .from(jobRecords)
      .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.task, TASK.mintSend)))
    expect(records.length).toBeGreaterThanOrEqual(4)
    expect(records.every((r) => r.attempts <= 1 && r.state !== 'dead' && r.state !== 'retrying')).toBe(true)
    const live = await t.db.execute<{ attempts: number }>(sql`
      select j.attempts from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
      where k.identifier = ${TASK.mintSend}`)
    expect(live).toHaveLength(1)
    expect((await readQueueMetrics(t.db)).feeCappedOrders).toBe(1)

    // the operator raises the ceiling: the worker restarts with the new environment
    await worker?.stop('SIGTERM')
    await start('raised', { MAX_FEE_PER_GAS: parseGwei('100').toString(), MAX_PRIORITY_FEE: parseGwei('2').toString() })
    await waitFor(async () => (await orderRow(order.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `the order confirmed (log: ${worker?.logFile})`,
    })
    minted.push(order)
    const [tx, ...more] = await txsOf(order.id)
    expect(more).toEqual([])
    expect(BigInt(tx.maxFeePerGas) <= parseGwei('100')).toBe(true)
    expect(BigInt(tx.maxPriorityFeePerGas) <= parseGwei('2')).toBe(true)
    expect((await readQueueMetrics(t.db)).feeCappedOrders).toBe(0)
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 90_000)

  it('a stuck mint whose replacement would pass the ceiling keeps its nonce and waits; a higher ceiling replaces it, once', async () => {
    // the first send fits exactly (max fee = base fee + 1 wei tip); any bump (+12.5%) does not
    const base = await baseFee()
    const ceiling = { MAX_FEE_PER_GAS: (base + 1n).toString(), MAX_PRIORITY_FEE: '1' }
    await start('stuck-capped', { ...ceiling, STUCK_AFTER_MS: '1500' })
    await chain.testClient.setAutomine(false)
    const [order] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(order.id))?.status === 'submitted', {
      timeoutMs: 20_000,
      what: 'the mint broadcast',
    })
    const [original] = await txsOf(order.id)
    expect({ maxFee: original.maxFeePerGas, tip: original.maxPriorityFeePerGas }).toEqual({
      maxFee: (base + 1n).toString(),
      tip: '1',
    })
    await waitFor(async () => (await namesOf(order.id)).includes('fee_capped'), {
      timeoutMs: 30_000,
      what: `fee_capped by the signer's signer_confirm (log: ${worker?.logFile})`,
    })
    await sleep(2_000)

    const events = await eventsOf(order.id)
    const capped = events.filter((e) => e.event === 'fee_capped')
    expect(capped).toHaveLength(1)
    expect(capped[0]?.task).toBe(TASK.signerConfirm)
    expect(capped[0]?.detail).toMatch(
      new RegExp(
        `^${original.hash} not mined after 1500 ms; a replacement needs max fee \\d+ and tip 2 wei, above the ceiling`,
      ),
    )
    expect(events.map((e) => e.event)).not.toContain('replaced')
    expect(events.map((e) => e.event)).not.toContain('dead')
    expect((await txsOf(order.id)).map((x) => x.hash)).toEqual([original.hash])
    expect(await orderRow(order.id)).toMatchObject({ status: 'submitted', nonce: original.nonce })
    expect((await readQueueMetrics(t.db)).feeCappedOrders).toBe(1)

    await worker?.stop('SIGTERM')
    await start('stuck-raised', {
      MAX_FEE_PER_GAS: parseGwei('100').toString(),
      MAX_PRIORITY_FEE: parseGwei('2').toString(),
      STUCK_AFTER_MS: '1500',
    })
    await waitFor(async () => (await namesOf(order.id)).includes('replaced'), {
      timeoutMs: 30_000,
      what: `the replacement (log: ${worker?.logFile})`,
    })
    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    await waitFor(async () => (await orderRow(order.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: 'the replaced mint confirmed',
    })
    minted.push(order)
    const txs = await txsOf(order.id)
    expect(new Set(txs.map((x) => x.nonce))).toEqual(new Set([original.nonce]))
    for (const x of txs) expect(BigInt(x.maxFeePerGas) <= parseGwei('100')).toBe(true)
    expect((await readQueueMetrics(t.db)).feeCappedOrders).toBe(0)
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 120_000)
})
