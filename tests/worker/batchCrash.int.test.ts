import { and, eq, inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

describe('a worker killed between reserving a batch of nonces and storing their signatures', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('after_reserve: the batch comes back after the stale unlock, each order signs the nonce it was bound to: nothing lost, nothing doubled, no gap', async () => {
    const to = [privateKeyToAddress(generatePrivateKey())]
    // queued before the worker starts: its first job claims the others into one batch
    const orders = await createTestOrders(t.db, { count: 6, to })
    const ids = orders.map((o) => o.id)
    const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1', MINT_SEND_BATCH: '50' } })
    const victim = startWorkerProcess({
      name: 'victim-after_reserve',
      env: { ...env, MINTDESK_FAILPOINTS: 'after_reserve' },
    })
    workers.push(victim)
    const death = await victim.exited
    expect(death.signal).toBe('SIGKILL')
    expect(victim.lines.some((l) => l.failpoint === 'after_reserve')).toBe(true)

    // the crash left consecutive nonces reserved and bound, nothing signed, every job locked by the dead worker
    const bound = await t.db.select().from(signerNonces).where(inArray(signerNonces.orderId, ids))
    expect(bound.length).toBe(orders.length)
    expect(bound.every((n) => n.state === 'reserved' && n.use === 'mint')).toBe(true)
    const reservedAt = new Map(bound.map((n) => [n.orderId, n.nonce]))
    const sorted = [...reservedAt.values()].sort((a, b) => (a < b ? -1 : 1))
    expect(sorted).toEqual(Array.from({ length: orders.length }, (_, i) => sorted[0]! + BigInt(i)))
    expect(await t.db.select().from(chainTxs).where(inArray(chainTxs.orderId, ids))).toEqual([])

    const rescuer = startWorkerProcess({ name: 'rescuer-after_reserve', env })
    workers.push(rescuer)
    await waitFor(
      async () =>
        (await t.db.select({ status: mintOrders.status }).from(mintOrders).where(inArray(mintOrders.id, ids))).every(
          (o) => o.status === 'confirmed',
        ),
      { timeoutMs: 60_000, intervalMs: 300, what: `every order confirmed (logs: ${rescuer.logFile})` },
    )
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobRecords)
            .where(and(inArray(jobRecords.orderId, ids), eq(jobRecords.task, TASK.mintSend)))
        ).every((r) => r.state === 'done'),
      { timeoutMs: 30_000, what: 'every killed mint_send job done' },
    )
    await verifyMints({ db: t.db, chain, orders })

    for (const order of orders) {
      const txs = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
      expect(
        txs.map((x) => x.nonce),
        `order ${order.id} signed the nonce it was bound to`,
      ).toEqual([reservedAt.get(order.id)])
      const names = (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, order.id))).map((e) => e.event)
      expect(
        names.filter((e) => e === 'nonce_reserved'),
        order.id,
      ).toHaveLength(1)
      expect(
        names.filter((e) => e === 'signed'),
        order.id,
      ).toHaveLength(1)
      expect(names, order.id).toContain('unlocked')
      const [send] = await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.task, TASK.mintSend)))
      expect(send).toMatchObject({ state: 'done', attempts: 2 })
    }
    await rescuer.stop('SIGTERM')
  }, 120_000)
})
