import { inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintOrders } from '@/db/schema'
import { createChainClient } from '@/lib/chain/createChainClient'
import { type RpcFaultProxy, startRpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/**
 * The RPC drill: a real worker process on two endpoints, the fault proxy in front of anvil
 * as the primary (rpc 1) and anvil itself as the secondary (rpc 2). The primary is killed
 * in the middle of a drain, or lies (receipts answered null, then a head that stops); every
 * order still confirms, exactly once (verifyMints reads the chain). The chain makes a block a
 * second. The switch's cost is measured and printed (a client of the same configuration timing
 * each call), never asserted.
 */
const HEALTH_MS = '200'

async function confirmedCount(t: TestDatabase, ids: string[]): Promise<number> {
  const rows = await t.db.select().from(mintOrders).where(inArray(mintOrders.id, ids))
  return rows.filter((r) => r.status === 'confirmed').length
}

describe('the RPC drill: two endpoints, the primary killed or lying', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]

  beforeAll(async () => {
    // a block a second, as a live chain makes them whether or not we send: a node whose head stops falls
    // behind by the clock (on an idle automining chain a frozen head would never be more than a block or two behind)
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ blockTime: 1 })])
  }, 60_000)
  afterAll(async () => {
    await chain?.stop()
    await t?.drop()
  })

  const startWorker = async (
    name: string,
    primary: RpcFaultProxy,
    extra: Record<string, string> = {},
  ): Promise<WorkerProcess> => {
    const worker = startWorkerProcess({
      name,
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: {
          RPC_URLS: `${primary.url},${chain.rpcUrl}`,
          RPC_HEALTH_MS: HEALTH_MS,
          WORKER_CONCURRENCY: '6',
          ...extra,
        },
      }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
    return worker
  }

  it('the primary killed mid-drain of 30 orders: every order confirms exactly once', async () => {
    // a primary as slow as a remote provider (25 ms a request), so the drain is under way when it dies
    const primary = await startRpcFaultProxy({ target: chain.rpcUrl, faults: { latencyMs: 25 } })
    const worker = await startWorker('rpc-drill-kill', primary, { MINT_SEND_BATCH: '5' })
    // a client configured as the worker's, timing one call every 25 ms across the kill
    const probe = createChainClient({
      rpcUrls: [primary.url, chain.rpcUrl],
      chainId: chain.chainId,
      pollingMs: 100,
      healthMs: Number(HEALTH_MS),
    })
    const timings: { at: number; ms: number; ok: boolean }[] = []
    let timing = true
    const timer = (async () => {
      while (timing) {
        const started = performance.now()
        const ok = await probe.getBlockNumber().then(
          () => true,
          () => false,
        )
        timings.push({ at: Date.now(), ms: performance.now() - started, ok })
        await new Promise((r) => setTimeout(r, 25))
      }
    })()
    try {
      const orders = await createTestOrders(t.db, { count: 30, to })
      const ids = orders.map((o) => o.id)
      await waitFor(async () => (await confirmedCount(t, ids)) >= 1, {
        timeoutMs: 60_000,
        intervalMs: 20,
        what: `the first of 30 orders confirmed before the kill (log: ${worker.logFile})`,
      })
      const confirmedAtKill = await confirmedCount(t, ids)
      const killedAt = Date.now()
      await primary.stop() // connection refused from now on
      await waitFor(async () => (await confirmedCount(t, ids)) === ids.length, {
        timeoutMs: 90_000,
        intervalMs: 100,
        what: `all 30 orders confirmed after the primary died (log: ${worker.logFile})`,
      })
      const drainedAfterKillMs = Date.now() - killedAt
      // the timing client runs on for at least 2 s past the kill, past its first probes
      await new Promise((r) => setTimeout(r, Math.max(0, killedAt + 2_000 - Date.now())))
      timing = false
      await timer
      minted.push(...orders)
      await verifyMints({ db: t.db, chain, orders: minted })
      expect(worker.child.exitCode).toBeNull()

      const before = timings.filter((x) => x.at < killedAt).map((x) => x.ms)
      const after = timings.filter((x) => x.at >= killedAt)
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
      const baseline = median(before)
      const slow = after.filter((x) => x.ms > baseline + 20)
      const worst = Math.max(0, ...after.map((x) => x.ms))
      console.log(
        `[rpc drill] kill at ${confirmedAtKill}/30 confirmed; drained the rest in ${drainedAfterKillMs} ms; ` +
          `per-call latency before ${baseline.toFixed(1)} ms (median), worst after the kill ${worst.toFixed(1)} ms ` +
          `(+${(worst - baseline).toFixed(1)} ms), ${slow.length} of ${after.length} calls slower than baseline + 20 ms, ` +
          `${after.filter((x) => !x.ok).length} failed`,
      )
      // behaviour, not time: the kill fell mid-drain, and reads went on through the secondary
      expect(confirmedAtKill).toBeLessThan(ids.length)
      expect(after.filter((x) => x.ok).length).toBeGreaterThan(0)
    } finally {
      timing = false
      await timer
      await worker.stop('SIGTERM')
      await primary.stop().catch(() => undefined)
    }
  }, 180_000)

  it('a lying primary (receipts answered null, then a head that stops): orders still confirm exactly once', async () => {
    const primary = await startRpcFaultProxy({ target: chain.rpcUrl, faults: { nullReceipts: true } })
    const worker = await startWorker('rpc-drill-lie', primary)
    try {
      const lied = await createTestOrders(t.db, { count: 10, to })
      await waitFor(
        async () =>
          (await confirmedCount(
            t,
            lied.map((o) => o.id),
          )) === lied.length,
        {
          timeoutMs: 60_000,
          intervalMs: 100,
          what: `10 orders confirmed past a primary answering receipts null (log: ${worker.logFile})`,
        },
      )
      minted.push(...lied)

      primary.setFaults({ lag: { everyMs: 600_000, forMs: 600_000 } }) // its head stops from now on
      const lagged = await createTestOrders(t.db, { count: 10, to })
      await waitFor(
        async () =>
          (await confirmedCount(
            t,
            lagged.map((o) => o.id),
          )) === lagged.length,
        {
          timeoutMs: 60_000,
          intervalMs: 100,
          what: `10 orders confirmed past a primary whose head stopped (log: ${worker.logFile})`,
        },
      )
      minted.push(...lagged)
      expect(primary.counts.lagged).toBeGreaterThan(0)
      await verifyMints({ db: t.db, chain, orders: minted })
    } finally {
      await worker.stop('SIGTERM')
      await primary.stop()
    }
  }, 180_000)
})
