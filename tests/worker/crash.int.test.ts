import { and, eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

describe('a worker killed with SIGKILL in the middle of a mint', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  for (const failpoint of ['after_sign', 'after_broadcast'] as const) {
    it(`${failpoint}: another worker takes the job over within a minute and the order is minted exactly once`, async () => {
      const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1' } })
      const victim = startWorkerProcess({
        name: `victim-${failpoint}`,
        env: { ...env, MINTDESK_FAILPOINTS: failpoint },
      })
      workers.push(victim)
      await victim.waitForLine((l) => l.msg === 'worker started')
      const [order] = await createTestOrders(t.db, { count: 1, to })

      const death = await victim.exited
      const killedAt = Date.now()
      expect(death.signal).toBe('SIGKILL')
      expect(victim.lines.some((l) => l.failpoint === failpoint)).toBe(true)
      const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
      expect(stored, 'the signed transaction was stored before the crash').toBeDefined()
      const [before] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id))
      expect(before.status, 'the crash came before the status update').toBe('pending')

      const rescuer = startWorkerProcess({ name: `rescuer-${failpoint}`, env })
      workers.push(rescuer)
      try {
        await waitFor(
          async () =>
            (await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status === 'confirmed',
          { timeoutMs: 60_000, what: `order ${order.id} confirmed (logs: ${rescuer.logFile})` },
        )
        const tookMs = Date.now() - killedAt
        expect(tookMs).toBeLessThan(60_000)
        minted.push(order)
        // the killed job itself is taken over too (the nonce health check may confirm a mined mint first)
        await waitFor(
          async () =>
            (
              await t.db
                .select()
                .from(jobRecords)
                .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.task, TASK.mintSend)))
            )[0]?.state === 'done',
          { timeoutMs: 60_000 - tookMs, what: 'the killed mint_send job done' },
        )
        const takeoverMs = Date.now() - killedAt

        // one signed mint, re-sent (never re-signed); the job was unlocked by the sweep, not after 4 hours
        const txs = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
        expect(txs.map((x) => x.hash)).toEqual([stored.hash])
        const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, order.id))
        const names = events.map((e) => e.event)
        expect(names.filter((e) => e === 'signed')).toHaveLength(1)
        expect(names).toContain('unlocked')
        expect(names).toContain('confirmed')
        const [send] = await t.db
          .select()
          .from(jobRecords)
          .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.task, TASK.mintSend)))
        expect(send.state).toBe('done')
        expect(send.attempts).toBe(2)
        await verifyMints({ db: t.db, chain, orders: minted })
        console.log(
          `[crash] ${failpoint}: order confirmed ${tookMs} ms, killed job done ${takeoverMs} ms after the SIGKILL`,
        )
      } finally {
        await rescuer.stop('SIGTERM')
      }
    }, 90_000)
  }
})
