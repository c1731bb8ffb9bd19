import { and, eq, inArray, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { retryJob } from '@/lib/web/admin/retryJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { type RpcProxy, startRpcProxy } from '@/tests/fixtures/rpcProxy'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ADMIN_ID = '00000000-0000-4000-8000-00000000ad01'

/**
 * graphile-worker's backoff between attempts is exp(attempts) seconds (2.7 s, 7.4 s,
 * 20 s, 55 s: ~85 s for 5 attempts). To keep the test short without lowering the
 * attempts, the test fast-forwards the queue's clock: a failed job waiting for its next
 * attempt gets run_at = now(). The attempts, the failures and the dead letter are real.
 */
async function fastForwardRetries(t: TestDatabase): Promise<void> {
  await t.db.execute(sql`
    update graphile_worker._private_jobs set run_at = now()
    where locked_at is null and attempts > 0 and attempts < max_attempts and run_at > now()
      and task_id in (select id from graphile_worker._private_tasks where identifier in (${TASK.mintSend}, ${TASK.orderConfirm}, ${TASK.signerConfirm}))`)
}

describe('the RPC node unreachable (a fault-injecting proxy in front of anvil)', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let proxy: RpcProxy
  let worker: WorkerProcess | undefined
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    proxy = await startRpcProxy({ target: chain.rpcUrl })
    worker = startWorkerProcess({
      name: 'outage',
      env: workerEnv({ databaseUrl: t.url, chain, rpcUrl: proxy.url, env: { WORKER_CONCURRENCY: '4' } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await proxy?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('for a while: the jobs fail, retry with backoff and finish once it is back', async () => {
    proxy.setMode('reset')
    const orders = await createTestOrders(t.db, { count: 3, to })
    const ids = orders.map((o) => o.id)
    await waitFor(
      async () => {
        const retrying = await t.db
          .select()
          .from(jobEvents)
          .where(and(inArray(jobEvents.orderId, ids), eq(jobEvents.event, 'retrying')))
        return new Set(retrying.map((e) => e.orderId)).size === ids.length
      },
      { timeoutMs: 20_000, what: 'every mint_send failed once and is waiting to retry' },
    )
    proxy.setMode('hang') // now the requests time out instead
    await new Promise((r) => setTimeout(r, 1_500))
    proxy.setMode('pass')
    await waitFor(
      async () => {
        await fastForwardRetries(t)
        const rows = await t.db.select().from(mintOrders).where(inArray(mintOrders.id, ids))
        return rows.every((r) => r.status === 'confirmed')
      },
      { timeoutMs: 60_000, intervalMs: 300, what: `orders confirmed after the outage (log: ${worker?.logFile})` },
    )
    minted.push(...orders)
    await verifyMints({ db: t.db, chain, orders: minted })
    const failed = await t.db
      .select()
      .from(jobEvents)
      .where(and(inArray(jobEvents.orderId, ids), eq(jobEvents.event, 'failed')))
    expect(failed.length).toBeGreaterThanOrEqual(ids.length)
    expect(failed.every((e) => e.error && e.error.length > 0 && e.durationMs !== null)).toBe(true)
  }, 90_000)

  it('for good: each mint_send ends in the dead letters after 5 attempts, its order failed; an admin retry then mints it', async () => {
    proxy.setMode('reset')
    const orders = await createTestOrders(t.db, { count: 2, to, maxAttempts: 5 })
    const ids = orders.map((o) => o.id)
    await waitFor(
      async () => {
        await fastForwardRetries(t)
        const rows = await t.db
          .select()
          .from(jobRecords)
          .where(and(inArray(jobRecords.orderId, ids), eq(jobRecords.task, TASK.mintSend)))
        return rows.length === ids.length && rows.every((r) => r.state === 'dead')
      },
      { timeoutMs: 60_000, intervalMs: 300, what: `mint_send jobs dead (log: ${worker?.logFile})` },
    )
    for (const order of orders) {
      const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id))
      expect(row.status).toBe('failed')
      expect(row.failureReason).toMatch(/gave up after 5 attempts/)
      // graphile-worker keeps the dead job: attempts = max_attempts, with its last error
      const [dead] = await t.db.execute<{ attempts: number; max_attempts: number; last_error: string | null }>(
        sql`select attempts, max_attempts, last_error from graphile_worker._private_jobs where id = ${order.jobId}::bigint`,
      )
      expect(dead).toMatchObject({ attempts: 5, max_attempts: 5 })
      expect(dead.last_error).toBeTruthy()
      const events = await t.db.select().from(jobEvents).where(eq(jobEvents.jobId, order.jobId))
      const count = (name: string) => events.filter((e) => e.event === name).length
      expect([count('started'), count('failed'), count('retrying'), count('dead')]).toEqual([5, 5, 4, 1])
    }

    // the admin retries the dead letters once the node is back (createTestOrders put the orders' bars on a
    // custodian-signed list of a fresh vault, so the worker's checks before signing pass)
    proxy.setMode('pass')
    for (const order of orders)
      await retryJob(t.db, { jobId: order.jobId, actor: { id: ADMIN_ID, email: 'admin@mintdesk.test' } })
    await waitFor(
      async () =>
        (await t.db.select().from(mintOrders).where(inArray(mintOrders.id, ids))).every(
          (r) => r.status === 'confirmed',
        ),
      { timeoutMs: 30_000, what: 'retried orders confirmed' },
    )
    minted.push(...orders)
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 120_000)
})
