import { and, count, eq, ilike, inArray, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobEvents, mintOrders } from '@/db/schema'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { FAULTS_TASK } from '@/worker/ops/flushFaultCounts'

const ORDERS = 200
const SIGN_RATE = 20

// KMS throttling: the local KMS endpoint allows 20 Sign calls per second for the
// whole account (KMS_LOCAL_SIGN_RATE), and another service of the same account (a
// neighbour signing in this test process) eats that quota now and then, so the workers'
// own budget does not keep them clear of throttles. Every order must
// still confirm exactly once: throttles are retried inside the signature, and a signature
// still throttled leaves its order to be tried again, never a dead letter or a lost nonce.
describe(`${ORDERS} orders, KMS allowing ${SIGN_RATE} signs/s shared with a neighbour`, () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 2, kmsSignRate: SIGN_RATE })])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('confirms every order exactly once; throttles seen, retried, none a failure', async () => {
    // the default budget (100 Sign/s per process, 50 per key) assumes a quota this account
    // does not have (and the neighbour eats part of it): throttles happen, and must be absorbed
    const env = workerEnv({ databaseUrl: t.url, chain })
    for (const name of ['kms1', 'kms2']) workers.push(startWorkerProcess({ name, env }))
    await Promise.all(workers.map((w) => w.waitForLine((l) => l.msg === 'worker started', 30_000)))

    // the neighbour: another service of the same account, quiet for 2 s, then taking the
    // whole Sign quota for 1 s, again and again: whatever the workers sign in those
    // seconds meets an empty bucket (simulated on the endpoint's bucket, so the neighbour
    // costs this busy test machine no signatures)
    let neighbourOn = true
    const neighbour = (async () => {
      while (neighbourOn) {
        await new Promise((r) => setTimeout(r, 2_000))
        for (let i = 0; i < 50 && neighbourOn; i++) {
          chain.kmsSignThrottle.spend(SIGN_RATE)
          await new Promise((r) => setTimeout(r, 20))
        }
      }
    })()

    const throttledBefore = chain.kmsSignThrottle.counts.throttled
    const to = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders = await createTestOrders(t.db, { count: ORDERS, to })
    try {
      await waitFor(
        async () => {
          const [row] = await t.db.select({ n: count() }).from(mintOrders).where(eq(mintOrders.status, 'confirmed'))
          return (row?.n ?? 0) === ORDERS
        },
        {
          timeoutMs: 200_000,
          intervalMs: 500,
          what: `${ORDERS} confirmed orders (logs: ${workers.map((w) => w.logFile).join(', ')})`,
        },
      )
    } finally {
      neighbourOn = false
      await neighbour
    }
    await verifyMints({ db: t.db, chain, orders })

    // the workers' final flush of their fault counts happens at SIGTERM
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGTERM')))
    const [faults] = await t.db.execute<{ throttled: number | null }>(
      sql`select sum((data->>'count')::int)::int as throttled from job_events where task = ${FAULTS_TASK} and event = 'kms_throttled'`,
    )
    const ids = orders.map((o) => o.id)
    const dead = await t.db
      .select()
      .from(jobEvents)
      .where(and(inArray(jobEvents.orderId, ids), eq(jobEvents.event, 'dead')))
    const failed = await t.db
      .select()
      .from(mintOrders)
      .where(and(inArray(mintOrders.id, ids), eq(mintOrders.status, 'failed')))
    console.log(
      `[kmsThrottling] rate ${chain.kmsSignThrottle.rate()}, signed ${chain.kmsSignThrottle.counts.signed}; endpoint throttled ${chain.kmsSignThrottle.counts.throttled - throttledBefore} Sign calls ; the workers counted ${faults?.throttled ?? 0}`,
    )
    expect(faults?.throttled ?? 0, 'throttles seen by the workers').toBeGreaterThan(0)
    expect(dead, 'no job died of a throttle').toEqual([])
    // a throttle that outlasts the signer's retries waits (no attempt spent): no attempt of an order failed of one
    const throttledAttempts = await t.db
      .select()
      .from(jobEvents)
      .where(
        and(inArray(jobEvents.orderId, ids), eq(jobEvents.event, 'failed'), ilike(jobEvents.detail, '%throttled%')),
      )
    expect(throttledAttempts, 'no attempt failed of a throttle').toEqual([])
    expect(failed).toEqual([])
  }, 300_000)
})
