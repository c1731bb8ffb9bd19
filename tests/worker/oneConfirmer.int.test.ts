import { count, eq, inArray, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ORDERS = 200

/**
 * The orders of a signer in flight are followed by ONE
 * signer_confirm job of that signer, not a job per order. While 200 orders of one signer
 * go through two workers, graphile-worker's queue is sampled: never more than one
 * signer_confirm per signer, never an order_confirm of an order (nothing goes wrong here);
 * afterwards every order's timeline has each step once, the confirmation written by a
 * signer_confirm job.
 */
describe('200 orders of one signer, two workers', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('are confirmed by one confirmer job at a time, with every order timeline complete', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain })
    for (const name of ['c1', 'c2']) workers.push(startWorkerProcess({ name, env }))
    await Promise.all(workers.map((w) => w.waitForLine((l) => l.msg === 'worker started', 30_000)))

    // the queue, sampled while the orders go through
    let maxConfirmersPerSigner = 0
    let samples = 0
    const orderConfirmJobs = new Set<string>()
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const rows = await t.db.execute<{ task: string; key: string | null; n: number }>(sql`
          select t.identifier as task, j.key, count(*)::int as n
          from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier in (${TASK.signerConfirm}, ${TASK.orderConfirm})
          group by t.identifier, j.key`)
        for (const r of rows) {
          if (r.task === TASK.signerConfirm) maxConfirmersPerSigner = Math.max(maxConfirmersPerSigner, r.n)
          else orderConfirmJobs.add(r.key ?? '?')
        }
        samples++
        await new Promise((r) => setTimeout(r, 50))
      }
    })()

    const to = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders = await createTestOrders(t.db, { count: ORDERS, to })
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
    sampling = false
    await sampler
    await verifyMints({ db: t.db, chain, orders })

    expect(samples).toBeGreaterThan(10)
    expect(maxConfirmersPerSigner, 'signer_confirm jobs of the signer at once').toBe(1)
    const why = await t.db
      .select({ detail: jobEvents.detail })
      .from(jobEvents)
      .where(sql`${jobEvents.task} = ${TASK.orderConfirm} and ${jobEvents.event} = 'enqueued'`)
    expect(
      [...orderConfirmJobs],
      `order_confirm jobs of single orders: ${why.map((w) => w.detail).join('; ')}`,
    ).toEqual([])
    const perOrderJobs = await t.db
      .select({ n: count() })
      .from(jobRecords)
      .where(eq(jobRecords.task, TASK.orderConfirm))
    expect(perOrderJobs[0]?.n).toBe(0)

    // every order's timeline: each step once, the confirmation by a signer_confirm job
    const ids = orders.map((o) => o.id)
    const events = await t.db.select().from(jobEvents).where(inArray(jobEvents.orderId, ids))
    const confirmerJobs = new Set(
      (
        await t.db.select({ jobId: jobRecords.jobId }).from(jobRecords).where(eq(jobRecords.task, TASK.signerConfirm))
      ).map((r) => r.jobId),
    )
    for (const order of orders) {
      const mine = events.filter((e) => e.orderId === order.id)
      const times = (name: string) => mine.filter((e) => e.event === name).length
      expect(
        [times('signed'), times('broadcast'), times('mined'), times('confirmed')],
        `timeline of ${order.id}`,
      ).toEqual([1, 1, 1, 1])
      const confirmed = mine.find((e) => e.event === 'confirmed')
      expect(confirmed?.task).toBe(TASK.signerConfirm)
      expect(confirmed?.jobId !== null && confirmed?.jobId !== undefined && confirmerJobs.has(confirmed.jobId)).toBe(
        true,
      )
      const mined = mine.find((e) => e.event === 'mined')
      expect(
        mined?.id !== undefined && confirmed?.id !== undefined && mined.id < confirmed.id,
        'mined before confirmed',
      ).toBe(true)
    }
    // nothing left behind: no confirmer waits once nothing is in flight
    await waitFor(
      async () => {
        const [row] = await t.db.execute<{ n: number }>(sql`
          select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = ${TASK.signerConfirm}`)
        return row?.n === 0
      },
      { timeoutMs: 10_000, what: 'the confirmer ended' },
    )
    console.log(
      `[oneConfirmer] ${confirmerJobs.size} confirmer passes (jobs) for ${ORDERS} orders; ${samples} queue samples`,
    )
  }, 150_000)
})
