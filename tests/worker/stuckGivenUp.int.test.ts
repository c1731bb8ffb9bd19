import { and, eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, jobEvents, mintOrders, signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/**
 * With one confirmer per signer, an order in flight has no job of its own. A mint that
 * never gets mined must still reach the admin: after the most replacements we pay for, it
 * becomes a dead letter of its own (order_confirm, the order still submitted), which the
 * admin cancels; the nonce is then filled and nothing is minted for the order.
 */
describe('a mint still not mined after the most replacements', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let web: DbClient | undefined
  let worker: WorkerProcess | undefined

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await web?.close()
    await chain?.testClient.setAutomine(true)
    await chain?.stop()
    await t?.drop()
  })

  it('becomes its own dead letter, the admin cancels it, the nonce is filled, nothing is minted', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain, env: { STUCK_AFTER_MS: '100', NONCE_STALL_AFTER_MS: '600000' } })
    worker = startWorkerProcess({ name: 'stuck-given-up', env })
    await worker.waitForLine((l) => l.msg === 'worker started')
    await chain.testClient.setAutomine(false)
    const [order] = await createTestOrders(t.db, { count: 1, to: [privateKeyToAddress(generatePrivateKey())] })

    const dead = await waitFor(
      async () => {
        const rows = await t.db.execute<{ job_id: string; last_error: string | null }>(sql`
          select job_id::text, last_error from job_records
          where order_id = ${order.id}::uuid and task = ${TASK.orderConfirm} and state = 'dead'`)
        return rows[0]
      },
      { timeoutMs: 60_000, what: `the order's own dead letter (log: ${worker.logFile})` },
    )
    expect(dead.last_error).toContain('still not mined after 10 replacements')
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, order.id))
    expect(events.filter((e) => e.event === 'replaced')).toHaveLength(10)
    expect((await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status).toBe('submitted')

    // the admin cancels the dead letter, as the web does (role mintdesk_web)
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'cancel-as-web' })
    const admin = { id: '00000000-0000-4000-8000-00000000ad01', email: 'admin@mintdesk.test' }
    const cancelled = await cancelJob(web.db, { jobId: BigInt(dead.job_id), actor: admin })
    expect(cancelled).toMatchObject({ orderStatus: 'cancelled', releasedNonce: { nonce: 0 } })

    // the gap fill replaces the mint in the node's pool (a higher fee at the same nonce) before any block is mined
    await waitFor(
      async () =>
        (await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))).some(
          (x) => x.kind === 'gap_fill' && x.broadcastAt !== null,
        ),
      { timeoutMs: 45_000, what: `the gap fill sent (log: ${worker.logFile})` },
    )
    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    const filled = await waitFor(
      async () => {
        const row = (
          await t.db
            .select()
            .from(signerNonces)
            .where(and(eq(signerNonces.orderId, order.id), eq(signerNonces.nonce, 0n)))
        )[0]
        return row?.state === 'mined' && row
      },
      { timeoutMs: 45_000, what: `nonce 0 filled and mined (log: ${worker.logFile})` },
    )
    expect(filled.use).toBe('gap_fill')
    const fill = (await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))).find(
      (x) => x.kind === 'gap_fill',
    )
    expect(fill?.minedBlock).not.toBeNull()
    expect((await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status).toBe('cancelled')
    await verifyMints({ db: t.db, chain, orders: [], unminted: [order] })
  }, 150_000)
})
