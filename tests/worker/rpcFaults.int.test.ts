import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobEvents, mintOrders } from '@/db/schema'
import { type RpcFaultProxy, startRpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { FAULTS_TASK } from '@/worker/ops/flushFaultCounts'

const ORDERS = 100

// RPC limits and latency: the workers reach the chain only through a fault proxy
// (scripts/stack/rpcFaultProxy.ts) that answers a third of the requests 429 with
// Retry-After and adds 300 ms to every one. The chain client retries them (honouring the
// hint, with jitter); every order confirms exactly once, none is failed or dead.
describe(`${ORDERS} orders through an RPC provider answering 429 to a third of the calls, 300 ms slower`, () => {
  let t: TestDatabase
  let chain: ChainFixture
  let proxy: RpcFaultProxy
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 2 })])
    proxy = await startRpcFaultProxy({ target: chain.rpcUrl })
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await proxy?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('confirms every order exactly once; the 429s are retried, none a failure', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain, rpcUrl: proxy.url, env: { WORKER_CONCURRENCY: '16' } })
    for (const name of ['rpc1', 'rpc2']) workers.push(startWorkerProcess({ name, env }))
    await Promise.all(workers.map((w) => w.waitForLine((l) => l.msg === 'worker started', 60_000)))
    proxy.setFaults({ rateLimit: 1 / 3, retryAfterSeconds: 1, latencyMs: 300 })

    const to = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders = await createTestOrders(t.db, { count: ORDERS, to })
    await waitFor(
      async () => {
        const [row] = await t.db.select({ n: count() }).from(mintOrders).where(eq(mintOrders.status, 'confirmed'))
        return (row?.n ?? 0) === ORDERS
      },
      {
        timeoutMs: 240_000,
        intervalMs: 1_000,
        what: `${ORDERS} confirmed orders (logs: ${workers.map((w) => w.logFile).join(', ')})`,
      },
    )
    proxy.setFaults({})
    await verifyMints({ db: t.db, chain, orders })

    await Promise.all(workers.splice(0).map((w) => w.stop('SIGTERM')))
    const rows = await t.db.execute<{ event: string; n: number }>(
      sql`select event, sum((data->>'count')::int)::int as n from job_events where task = ${FAULTS_TASK} group by event`,
    )
    const counted = Object.fromEntries(rows.map((r) => [r.event, r.n]))
    const ids = orders.map((o) => o.id)
    const dead = await t.db
      .select()
      .from(jobEvents)
      .where(and(inArray(jobEvents.orderId, ids), eq(jobEvents.event, 'dead')))
    console.log(`[rpcFaults] proxy ${JSON.stringify(proxy.counts)}; the workers counted ${JSON.stringify(counted)}`)
    expect(proxy.counts.rateLimited).toBeGreaterThan(0)
    expect(counted.rpc_rate_limited ?? 0, '429s seen by the workers').toBeGreaterThan(0)
    expect(counted.rpc_retry ?? 0, 'retries').toBeGreaterThanOrEqual(counted.rpc_rate_limited ?? 0)
    expect(dead, 'no job died of a 429').toEqual([])
  }, 330_000)
})
