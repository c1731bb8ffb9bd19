import { count, eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintOrders, workers as workersTable } from '@/db/schema'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ORDERS = 60

describe('SIGTERM while jobs run', () => {
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

  it('exits 0 within the grace period, leaves no job locked, and another worker finishes every order exactly once', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_SHUTDOWN_GRACE_MS: '20000' } })
    const first = startWorkerProcess({ name: 'sigterm', env })
    workers.push(first)
    const started = await first.waitForLine((l) => l.msg === 'worker started')
    const workerId = String(started.workerId)
    const orders = await createTestOrders(t.db, { count: ORDERS, to: [privateKeyToAddress(generatePrivateKey())] })
    const confirmed = async () =>
      (await t.db.select({ n: count() }).from(mintOrders).where(eq(mintOrders.status, 'confirmed')))[0]?.n ?? 0
    await waitFor(async () => (await confirmed()) >= 3, {
      timeoutMs: 30_000,
      intervalMs: 50,
      what: 'the first orders confirmed',
    })

    const t0 = Date.now()
    const exit = await first.stop('SIGTERM')
    const tookMs = Date.now() - t0
    expect(exit).toEqual({ code: 0, signal: null })
    expect(tookMs).toBeLessThan(25_000)
    expect(first.lines.some((l) => l.msg === 'worker stopped')).toBe(true)
    const [row] = await t.db.select().from(workersTable).where(eq(workersTable.id, workerId))
    expect(row.stoppedAt).not.toBeNull()
    const locked = await t.db.execute(
      sql`select j.id, t.identifier, j.locked_by, j.locked_at, j.attempts, j.key from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where locked_by is not null`,
    )
    expect(locked, 'jobs still locked after a clean shutdown').toEqual([])
    const doneBefore = await confirmed()
    console.log(`[shutdown] SIGTERM with ${doneBefore}/${ORDERS} confirmed: exited 0 after ${tookMs} ms`)

    const second = startWorkerProcess({ name: 'after-sigterm', env })
    workers.push(second)
    await waitFor(async () => (await confirmed()) === ORDERS, {
      timeoutMs: 60_000,
      what: `all orders confirmed (log: ${second.logFile})`,
    })
    await verifyMints({ db: t.db, chain, orders })
  }, 120_000)
})
