import { readFileSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { type RpcProxy, startRpcProxy } from '@/tests/fixtures/rpcProxy'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const SECRET = 'SECRETKEY0123456789abcdef'

/**
 * An RPC provider's URL carries its API key (https://mainnet.infura.io/v3/KEY), and viem
 * writes the URL into its errors. Here the worker's RPC_URL has a secret path and query
 * (the fault-injecting proxy in front of anvil serves any path), the node then answers
 * HTTP 500 to every call, and each failure is stored and logged: the secret must be in
 * none of job_events, job_records, graphile-worker's last_error, the order's
 * failure_reason or the worker's log.
 */
describe('an RPC URL with an API key in it', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let proxy: RpcProxy
  let worker: WorkerProcess | undefined

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    proxy = await startRpcProxy({ target: chain.rpcUrl })
    const rpcUrl = `${proxy.url}/v3/${SECRET}?apikey=${SECRET}`
    worker = startWorkerProcess({
      name: 'redact',
      env: workerEnv({ databaseUrl: t.url, chain, rpcUrl, env: { MAX_ATTEMPTS: '2', LOG_LEVEL: 'debug' } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await proxy?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('a failing call never stores or logs the key', async () => {
    proxy.setMode('http500')
    const [order] = await createTestOrders(t.db, {
      count: 1,
      to: [privateKeyToAddress(generatePrivateKey())],
      maxAttempts: 2,
    })
    // attempt 1 fails and retries, attempt 2 fails and is dead: the order fails with the reason
    await waitFor(
      async () =>
        (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, order.id))).some(
          (e) => e.event === 'retrying',
        ),
      {
        timeoutMs: 20_000,
        what: 'the first failure',
      },
    )
    await t.db.execute(
      sql`update graphile_worker._private_jobs set run_at = now() where locked_at is null and attempts > 0`,
    )
    await waitFor(
      async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status === 'failed',
      {
        timeoutMs: 30_000,
        what: `the order failed (log: ${worker?.logFile})`,
      },
    )

    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, order.id))
    const failed = events.filter((e) => e.event === 'failed')
    expect(failed).toHaveLength(2)
    // what viem said is still there, the URL cut down to scheme, host and port
    for (const e of failed) expect(e.error).toContain(`URL: ${proxy.url}/[redacted]`)
    const records = await t.db.select().from(jobRecords).where(eq(jobRecords.task, TASK.mintSend))
    const [o] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id))
    const graphile = await t.db.execute<{ last_error: string | null }>(
      sql`select last_error from graphile_worker._private_jobs`,
    )
    expect(graphile.map((g) => g.last_error).join('\n')).toContain('[redacted]')

    const stored = JSON.stringify({ events, records, order: o, graphile }, (_, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    )
    expect(stored).not.toContain(SECRET)
    await worker?.stop('SIGTERM')
    const log = readFileSync(worker?.logFile ?? '', 'utf8')
    expect(log).toContain('[redacted]')
    expect(log).not.toContain(SECRET)
  }, 90_000)
})
