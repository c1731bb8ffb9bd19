import { and, asc, eq } from 'drizzle-orm'
import { parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, mintOrders, notificationEvents } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/** the order's outbox events for subscribers, oldest first */
async function notificationsOfIn(t: TestDatabase, orderId: string) {
  const rows = await t.db
    .select({ type: notificationEvents.type, payload: notificationEvents.payload, at: notificationEvents.createdAt })
    .from(notificationEvents)
    .where(eq(notificationEvents.orderId, orderId))
    .orderBy(asc(notificationEvents.createdAt))
  return rows.map((r) => ({ type: r.type, payload: r.payload as Record<string, string | null> }))
}

describe('a mint that does not stay mined', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]

  const eventsOf = (orderId: string) =>
    t.db.select().from(jobEvents).where(eq(jobEvents.orderId, orderId)).orderBy(asc(jobEvents.id))
  const hasEvent = async (orderId: string, event: string) => (await eventsOf(orderId)).some((e) => e.event === event)
  const notificationsOf = (orderId: string) => notificationsOfIn(t, orderId)
  const orderRow = async (orderId: string) =>
    (await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId)))[0]

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

  it('stuck (mining paused, then the base fee above its fee cap): replaced at the same nonce with higher fees and confirmed once', async () => {
    // the stall recovery would re-send the same bytes; here the replacement must do the work
    const env = workerEnv({
      databaseUrl: t.url,
      chain,
      env: { STUCK_AFTER_MS: '1500', NONCE_STALL_AFTER_MS: '600000' },
    })
    worker = startWorkerProcess({ name: 'stuck', env })
    await worker.waitForLine((l) => l.msg === 'worker started')
    await chain.testClient.setAutomine(false)
    const [order] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(order.id))?.status === 'submitted', {
      timeoutMs: 20_000,
      what: 'the mint broadcast',
    })
    const [original] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
    const replacements = async () => (await eventsOf(order.id)).filter((e) => e.event === 'replaced').length

    // 1. mining paused: still in the pool after STUCK_AFTER_MS -> replaced with fees bumped >= 12.5%
    await waitFor(async () => (await replacements()) >= 1, {
      timeoutMs: 30_000,
      what: `a replacement of the paused tx (log: ${worker.logFile})`,
    })

    // 2. a block without it, and the base fee far above its fee cap: anvil drops it, the
    //    re-send is refused for its fees, so it is replaced at >= 2 x the new base fee
    const before = await replacements()
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('500') })
    await chain.testClient.mine({ blocks: 1 })
    expect(
      await chain.publicClient.getTransactionCount({ address: chain.signerAddresses[0], blockTag: 'latest' }),
    ).toBe(Number(original.nonce))
    await waitFor(async () => (await replacements()) > before, {
      timeoutMs: 30_000,
      what: `a replacement above the new base fee (log: ${worker.logFile})`,
    })

    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    await waitFor(async () => (await orderRow(order.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: 'the replaced mint confirmed',
    })
    minted.push(order)

    const txs = await t.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.orderId, order.id))
      .orderBy(asc(chainTxs.createdAt))
    expect(txs.length).toBeGreaterThanOrEqual(3)
    expect(new Set(txs.map((x) => x.nonce))).toEqual(new Set([original.nonce]))
    expect(txs.slice(1).every((x) => x.kind === 'replacement')).toBe(true)
    for (let i = 1; i < txs.length; i++) {
      expect(
        BigInt(txs[i].maxFeePerGas) * 1000n >= BigInt(txs[i - 1].maxFeePerGas) * 1125n,
        'fee cap bumped >= 12.5%',
      ).toBe(true)
      expect(
        BigInt(txs[i].maxPriorityFeePerGas) * 1000n >= BigInt(txs[i - 1].maxPriorityFeePerGas) * 1125n,
        'tip bumped >= 12.5%',
      ).toBe(true)
    }
    expect(BigInt(txs[txs.length - 1].maxFeePerGas) >= parseGwei('1000'), 'at least 2 x the risen base fee').toBe(true)
    const row = await orderRow(order.id)
    expect(row?.txHash).not.toBe(original.hash)
    expect(txs.map((x) => x.hash)).toContain(row?.txHash)
    // the signer's confirmer did it all: no job of the order's own
    const steps = (await eventsOf(order.id)).filter((e) => ['replaced', 'mined', 'confirmed'].includes(e.event))
    expect(new Set(steps.map((e) => e.task))).toEqual(new Set([TASK.signerConfirm]))
    // subscribers hear each step: submitted with the first hash, each replacement with its new one
    const announced = await notificationsOf(order.id)
    expect(announced[0]).toMatchObject({ type: 'mint.submitted', payload: { txHash: original.hash } })
    const replacedHashes = announced.filter((e) => e.type === 'mint.replaced').map((e) => e.payload.txHash)
    expect(replacedHashes).toEqual(txs.slice(1).map((x) => x.hash))
    expect(announced.at(-1)?.type).toBe('mint.confirmed')
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 90_000)

  it('reorged (anvil_reorg takes its block away before CONFIRMATIONS=3): noticed, the same bytes land again, once', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain, env: { CONFIRMATIONS: '3' } })
    worker = startWorkerProcess({ name: 'reorg', env })
    await worker.waitForLine((l) => l.msg === 'worker started')
    const [order] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(() => hasEvent(order.id, 'mined'), { timeoutMs: 20_000, what: 'the mint mined' })
    expect((await orderRow(order.id))?.status).toBe('submitted')
    const [tx] = await t.db
      .select()
      .from(chainTxs)
      .where(and(eq(chainTxs.orderId, order.id), eq(chainTxs.kind, 'mint')))
    const minedIn = tx.minedBlock
    expect(minedIn).not.toBeNull()

    const head = await chain.publicClient.getBlockNumber()
    await chain.testClient.request({
      method: 'anvil_reorg',
      params: [Number(head - (minedIn ?? 0n) + 1n), []],
    } as never) // anvil-only method, not in viem's test actions
    // a stored hash (hex text)
    await expect(chain.publicClient.getTransactionReceipt({ hash: tx.hash as `0x${string}` })).rejects.toThrow()

    await waitFor(() => hasEvent(order.id, 'reorged'), {
      timeoutMs: 20_000,
      what: `the reorg noticed (log: ${worker.logFile})`,
    })
    await waitFor(async () => (await eventsOf(order.id)).filter((e) => e.event === 'mined').length >= 2, {
      timeoutMs: 20_000,
      what: 'mined again',
    })
    await chain.testClient.mine({ blocks: 3 })
    await waitFor(async () => (await orderRow(order.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: 'confirmed after the reorg',
    })
    minted.push(order)

    const row = await orderRow(order.id)
    expect(row?.txHash).toBe(tx.hash) // the same signed bytes
    const names = (await eventsOf(order.id)).map((e) => e.event)
    expect(names.filter((e) => e === 'signed')).toHaveLength(1)
    expect(names).toContain('rebroadcast')
    const reorged = (await eventsOf(order.id)).filter((e) =>
      ['reorged', 'rebroadcast', 'mined', 'confirmed'].includes(e.event),
    )
    expect(new Set(reorged.map((e) => e.task))).toEqual(new Set([TASK.signerConfirm]))
    expect((await notificationsOf(order.id)).map((e) => e.type)).toContain('mint.reorged')
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 90_000)
})
