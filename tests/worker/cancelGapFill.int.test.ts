import { and, eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, jobEvents, mintOrders, signerNonces } from '@/db/schema'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { JobNotCancellableError } from '@/lib/web/errors/admin'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

describe('an admin cancels an order that already holds a nonce', () => {
  let t: TestDatabase
  let chain: ChainFixture
  /** the admin's cancel runs as the web does: as mintdesk_web */
  let web: DbClient | undefined
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  it('the nonce is filled with a zero-value self-transfer, the next order mints behind it, the cancelled one never does', async () => {
    const to = [privateKeyToAddress(generatePrivateKey())]
    const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1' } })
    // A is signed (nonce 0) and its worker dies before sending it
    const victim = startWorkerProcess({ name: 'cancel-victim', env: { ...env, MINTDESK_FAILPOINTS: 'after_sign' } })
    workers.push(victim)
    await victim.waitForLine((l) => l.msg === 'worker started')
    const [a] = await createTestOrders(t.db, { count: 1, to })
    await victim.exited
    const [signedA] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, a.id))
    expect(signedA.nonce).toBe(0n)

    // the test plays the sweep (graphile's own force_unlock_workers), then the admin cancels A;
    // C, still pending without a nonce, is cancelled too
    const [c] = await createTestOrders(t.db, { count: 1, to })
    await t.db.execute(
      sql`select graphile_worker.force_unlock_workers(array(select distinct locked_by from graphile_worker._private_jobs where locked_by is not null))`,
    )
    const admin = { id: '00000000-0000-4000-8000-00000000ad01', email: 'admin@mintdesk.test' }
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'cancel-as-web' })
    const cancelledA = await cancelJob(web.db, { jobId: a.jobId, actor: admin })
    expect(cancelledA).toMatchObject({
      orderStatus: 'cancelled',
      releasedNonce: { signer: signedA.signerAddress, nonce: 0 },
    })
    const cancelledC = await cancelJob(web.db, { jobId: c.jobId, actor: admin })
    expect(cancelledC.releasedNonce).toBeNull()
    await expect(cancelJob(web.db, { jobId: c.jobId, actor: admin })).rejects.toBeInstanceOf(JobNotCancellableError)
    // the web does not write nonces (invariant 7): the cancel leaves nonce 0 signed, and the
    // worker's nonce health check releases it (docs/decisions/026-nonces-in-postgres.md), as soon as a worker runs
    const nonceRow = async () =>
      (
        await t.db
          .select()
          .from(signerNonces)
          .where(and(eq(signerNonces.signerAddress, signedA.signerAddress), eq(signerNonces.nonce, 0n)))
      )[0]
    expect((await nonceRow())?.state).toBe('signed')
    // A's signed mint could still be mined: its bar stays held by it
    const barOfA = async () =>
      (
        await t.db.execute<{ status: string; order_id: string | null }>(sql`
          select b.status::text as status, b.order_id::text as order_id
          from vault_bars b join mint_order_bars mb on mb.bar_id = b.id where mb.order_id = ${a.id}::uuid`)
      )[0]
    expect(await barOfA()).toEqual({ status: 'reserved', order_id: a.id })

    // B comes next and gets nonce 1: it can only be mined once nonce 0 is filled
    const [b] = await createTestOrders(t.db, { count: 1, to })
    const worker = startWorkerProcess({ name: 'cancel-worker', env })
    workers.push(worker)
    await waitFor(
      async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, b.id)))[0]?.status === 'confirmed',
      {
        timeoutMs: 45_000,
        what: `order B confirmed behind the gap fill (log: ${worker.logFile})`,
      },
    )

    const nonce0 = await waitFor(
      async () => {
        const row = await nonceRow()
        return row?.state === 'mined' && row
      },
      { timeoutMs: 15_000, what: 'nonce 0 seen mined by the nonce health check' },
    )
    expect(nonce0).toMatchObject({ use: 'gap_fill', state: 'mined', orderId: a.id })
    const atZero = await t.db
      .select()
      .from(chainTxs)
      .where(and(eq(chainTxs.signerAddress, signedA.signerAddress), eq(chainTxs.nonce, 0n)))
    const fill = atZero.find((x) => x.kind === 'gap_fill')
    expect(fill?.minedBlock).not.toBeNull()
    expect(
      BigInt(fill?.maxFeePerGas ?? 0) * 1000n >= BigInt(signedA.maxFeePerGas) * 1125n,
      'the fill outbids the signed mint',
    ).toBe(true)
    // a stored hash (hex text)
    const fillTx = await chain.publicClient.getTransaction({ hash: fill?.hash as `0x${string}` })
    expect(fillTx.to?.toLowerCase()).toBe(signedA.signerAddress.toLowerCase())
    expect(fillTx.value).toBe(0n)
    expect((await t.db.select().from(mintOrders).where(eq(mintOrders.id, a.id)))[0]?.status).toBe('cancelled')
    expect((await t.db.select().from(mintOrders).where(eq(mintOrders.id, c.id)))[0]).toMatchObject({
      status: 'cancelled',
      nonce: null,
    })
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, a.id))
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['cancelled', 'nonce_released', 'gap_filled']))
    // the fill used nonce 0 for good: A's bar is freed, available again on its list
    await waitFor(async () => (await barOfA())?.order_id === null, { timeoutMs: 15_000, what: "A's bar freed" })
    expect(await barOfA()).toEqual({ status: 'available', order_id: null })
    const afterFill = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, a.id))
    expect(afterFill.map((e) => e.event)).toEqual(expect.arrayContaining(['bars_held', 'bars_released']))
    // released by a worker (its id as the actor), not in the admin's transaction
    const released = events.filter((e) => e.event === 'nonce_released')
    expect(released).toHaveLength(1)
    expect(released[0]?.actor).not.toBe(admin.email)
    expect(released[0]?.task).toBe('nonce_health')
    await verifyMints({ db: t.db, chain, orders: [b], unminted: [a, c] })
  }, 90_000)
})
