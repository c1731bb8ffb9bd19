import { and, eq, inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

describe('MAX_IN_FLIGHT_PER_SIGNER (decision 029)', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.testClient.setAutomine(true).catch(() => undefined)
    await chain?.stop()
    await t?.drop()
  })

  it('a signer never has more unmined transactions than the bound; the rest wait without spending attempts, then mint once each', async () => {
    await chain.testClient.setAutomine(false)
    const orders = await createTestOrders(t.db, { count: 7, to: [privateKeyToAddress(generatePrivateKey())] })
    const ids = orders.map((o) => o.id)
    worker = startWorkerProcess({
      name: 'in-flight',
      env: workerEnv({ databaseUrl: t.url, chain, env: { MAX_IN_FLIGHT_PER_SIGNER: '3', IN_FLIGHT_RETRY_MS: '200' } }),
    })
    const w = worker
    const sent = () => t.db.select().from(chainTxs).where(inArray(chainTxs.orderId, ids))
    // nothing is mined: after three sends the queue keeps finding the signer full (a reserved nonce counts from its
    // reservation, so the queue may wait before the first batch is stored: wait for both)
    await waitFor(
      async () =>
        w.lines.filter((l) => l.msg === 'every signer at its in-flight bound: the send queue waits').length >= 3 &&
        (await sent()).length >= 3,
      {
        timeoutMs: 60_000,
        what: `the send queue waiting at the bound (log: ${w.logFile})`,
      },
    )
    expect(await sent()).toHaveLength(3)
    const waiting = await t.db
      .select()
      .from(mintOrders)
      .where(and(inArray(mintOrders.id, ids), eq(mintOrders.status, 'pending')))
    expect(waiting).toHaveLength(4)
    expect(
      waiting.every((o) => o.nonce === null),
      'no nonce reserved beyond the bound',
    ).toBe(true)

    await chain.testClient.mine({ blocks: 1 })
    await chain.testClient.setAutomine(true)
    await waitFor(
      async () =>
        (await t.db.select({ status: mintOrders.status }).from(mintOrders).where(inArray(mintOrders.id, ids))).every(
          (o) => o.status === 'confirmed',
        ),
      { timeoutMs: 60_000, intervalMs: 300, what: `every order confirmed (log: ${w.logFile})` },
    )
    await verifyMints({ db: t.db, chain, orders })
    const failures = await t.db
      .select()
      .from(jobEvents)
      .where(and(inArray(jobEvents.orderId, ids), eq(jobEvents.task, TASK.mintSend), eq(jobEvents.event, 'failed')))
    expect(failures, 'waiting spent no attempt').toEqual([])
  }, 150_000)
})
