import { count, eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintOrders, signers } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ORDERS = 200

describe('two workers, two signers, 200 orders', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 2 })])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('confirms every order with exactly one mint, and Postgres and the chain agree on every nonce', async () => {
    const started = Date.now()
    const env = workerEnv({ databaseUrl: t.url, chain })
    for (const name of ['w1', 'w2']) workers.push(startWorkerProcess({ name, env }))
    await Promise.all(workers.map((w) => w.waitForLine((l) => l.msg === 'worker started', 30_000)))

    const to = Array.from({ length: 7 }, () => privateKeyToAddress(generatePrivateKey()))
    // the orders arrive over time, a tenth at once, as requests and approvals do: both workers take jobs
    const orders: Awaited<ReturnType<typeof createTestOrders>> = []
    for (let i = 0; i < 10; i++) {
      orders.push(...(await createTestOrders(t.db, { count: ORDERS / 10, to })))
      await new Promise((r) => setTimeout(r, 150))
    }
    await waitFor(
      async () => {
        const [row] = await t.db.select({ n: count() }).from(mintOrders).where(eq(mintOrders.status, 'confirmed'))
        return (row?.n ?? 0) === ORDERS
      },
      {
        timeoutMs: 100_000,
        intervalMs: 500,
        what: `${ORDERS} confirmed orders (logs: ${workers.map((w) => w.logFile).join(', ')})`,
      },
    )
    const elapsed = Date.now() - started
    await verifyMints({ db: t.db, chain, orders })

    // both workers and both signers took part
    const bySigner = await t.db
      .select({ signer: mintOrders.signerAddress, n: count() })
      .from(mintOrders)
      .groupBy(mintOrders.signerAddress)
    expect(bySigner.length).toBe(2)
    const registered = await t.db.select().from(signers)
    expect(registered.length).toBe(2)
    const ran = workers.map((w) => w.lines.filter((l) => l.msg === 'job succeeded' && l.task === TASK.mintSend).length)
    expect(
      ran.every((n) => n > 0),
      `mint_send jobs per worker: ${ran.join(', ')}`,
    ).toBe(true)
    console.log(
      `[manyOrders] ${ORDERS} orders confirmed in ${elapsed} ms; per signer ${bySigner.map((s) => s.n).join('/')}; mint_send per worker ${ran.join('/')}`,
    )
  }, 150_000)
})
