import { and, eq, sql } from 'drizzle-orm'
import { type Hex, parseTransaction } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ADMIN = { id: '00000000-0000-4000-8000-00000000ad01', email: 'admin@mintdesk.test' }

/**
 * docs/decisions/030-one-confirmer-per-signer.md: one order's trouble is that order's, not its signer's. A submitted
 * mint leaves the node's pool and its stored bytes are changed in the database (signed by a key
 * that is not ours). The signer's confirmer, about to send it again, refuses the bytes and
 * hands the order to an order_confirm of its own, which becomes the order's dead letter; the
 * confirmer goes on. The admin cancels that dead letter (a submitted order cancelled from
 * its job), the worker fills the nonce, and the signer's next order, stuck behind the hole
 * until then, is confirmed by the confirmer.
 */
describe('the confirmer hands one order over and goes on', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined
  const to = [privateKeyToAddress(generatePrivateKey())]

  const orderRow = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const confirmJobOf = async (id: string) =>
    (
      await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, TASK.orderConfirm)))
    )[0]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.testClient.setAutomine(true)
    await chain?.stop()
    await t?.drop()
  })

  it('a submitted mint whose stored bytes are refused: its own dead letter, cancelled by the admin; the next order confirms', async () => {
    worker = startWorkerProcess({ name: 'hand-over', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
    await chain.testClient.setAutomine(false)
    const [a] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(a.id))?.status === 'submitted', {
      timeoutMs: 20_000,
      what: 'A broadcast',
    })
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, a.id))

    // A's bytes changed in the database (another key's signature), then A leaves the node's pool
    const original = parseTransaction(stored.rawTx as Hex)
    const forged = await privateKeyToAccount(generatePrivateKey()).signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: Number(stored.nonce),
      to: chain.tokenAddress,
      gas: original.gas,
      maxFeePerGas: original.maxFeePerGas,
      maxPriorityFeePerGas: original.maxPriorityFeePerGas,
      data: original.data,
    })
    await t.db.execute(sql`update chain_txs set raw_tx = ${forged} where hash = ${stored.hash}`)
    await chain.testClient.dropTransaction({ hash: stored.hash as Hex })

    await waitFor(async () => (await confirmJobOf(a.id))?.state === 'dead', {
      timeoutMs: 30_000,
      what: `A's own order_confirm dead (log: ${worker.logFile})`,
    })
    const dead = await confirmJobOf(a.id)
    expect(dead?.lastError).toMatch(/stored transaction does not match its order/)
    expect((await orderRow(a.id))?.status).toBe('submitted') // signed and once broadcast: 'failed' would be a guess
    const handedOver = await t.db
      .select()
      .from(jobEvents)
      .where(and(eq(jobEvents.orderId, a.id), eq(jobEvents.task, TASK.orderConfirm), eq(jobEvents.event, 'enqueued')))
    expect(handedOver.map((e) => e.detail)).toEqual([
      expect.stringMatching(
        /^the confirmer of 0x[0-9a-fA-F]{40} hands it over: stored transaction does not match its order/,
      ),
    ])
    // nothing forged reached the node
    expect(
      await chain.publicClient.getTransactionCount({ address: chain.signerAddresses[0], blockTag: 'pending' }),
    ).toBe(0)

    // the signer's next order waits behind the hole at nonce 0; the confirmer is not a dead letter
    const [c] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(c.id))?.status === 'submitted', {
      timeoutMs: 20_000,
      what: 'C broadcast',
    })
    const [confirmerDead] = await t.db.execute<{ n: number }>(sql`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = ${TASK.signerConfirm} and j.locked_at is null and j.attempts >= j.max_attempts`)
    expect(confirmerDead?.n).toBe(0)

    // the admin cancels A's dead letter: order cancelled, its nonce released and filled; C is mined behind the fill
    await chain.testClient.setAutomine(true)
    const cancelled = await cancelJob(t.db, { jobId: dead?.jobId ?? 0n, actor: ADMIN })
    expect(cancelled).toMatchObject({ orderStatus: 'cancelled', releasedNonce: { nonce: 0 } })
    await waitFor(async () => (await orderRow(c.id))?.status === 'confirmed', {
      timeoutMs: 45_000,
      what: `C confirmed behind the gap fill (log: ${worker.logFile})`,
    })
    const confirmedC = (
      await t.db
        .select()
        .from(jobEvents)
        .where(and(eq(jobEvents.orderId, c.id), eq(jobEvents.event, 'confirmed')))
    )[0]
    expect(confirmedC?.task).toBe(TASK.signerConfirm)
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(signerNonces)
            .where(and(eq(signerNonces.nonce, 0n), eq(signerNonces.state, 'mined')))
        ).length === 1,
      { timeoutMs: 15_000, what: 'nonce 0 filled and mined' },
    )
    expect((await orderRow(a.id))?.status).toBe('cancelled')
    await verifyMints({ db: t.db, chain, orders: [c], unminted: [a] })
  }, 120_000)
})
