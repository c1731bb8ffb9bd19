import { and, asc, eq, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { createKmsAccount } from '@/worker/signer/createKmsAccount'
import { createKmsClient } from '@/worker/signer/createKmsClient'

/**
 * graphile-worker's backoff (exp(attempts) s, ~85 s over 5 attempts)
 * fast-forwarded; the attempts and the dead letter are real
 */
async function fastForwardRetries(t: TestDatabase): Promise<void> {
  await t.db.execute(sql`
    update graphile_worker._private_jobs set run_at = now()
    where locked_at is null and attempts > 0 and attempts < max_attempts and run_at > now()
      and task_id in (select id from graphile_worker._private_tasks where identifier = ${TASK.orderConfirm})`)
}

/**
 * Decision 015: the nonce of a submitted mint used on chain by a transaction mintdesk did
 * not sign (the key used elsewhere). The signer's confirmer sees the nonce below the mined
 * one with no receipt of ours, twice, and hands the order to an order_confirm of its own:
 * NonceConsumedError, retried, then that order's dead letter, the order left submitted (its
 * mint can never land: a human decides). The nonce health check reports the mismatch once.
 * The signer's next order is confirmed by the confirmer meanwhile.
 */
describe("a mint's nonce used by someone else", () => {
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

  it('is handed to a job of its own that ends as its dead letter; the signer goes on', async () => {
    worker = startWorkerProcess({
      name: 'foreign',
      env: workerEnv({ databaseUrl: t.url, chain, env: { NONCE_STALL_AFTER_MS: '600000' } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
    await chain.testClient.setAutomine(false)
    const [a] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(a.id))?.status === 'submitted', {
      timeoutMs: 20_000,
      what: 'A broadcast',
    })
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, a.id))

    // the same key, used outside mintdesk at A's nonce: a self-transfer mined instead of A
    await chain.testClient.dropTransaction({ hash: stored.hash as Hex })
    const kms = createKmsClient({
      region: 'us-east-1',
      endpoint: chain.kmsEndpoint,
      env: { AWS_ACCESS_KEY_ID: 'mintdesk-local', AWS_SECRET_ACCESS_KEY: 'mintdesk-local' },
    })
    const key = await createKmsAccount(kms, { keyId: chain.kmsKeyIds[0] ?? '' })
    const fees = await chain.publicClient.estimateFeesPerGas()
    const foreign = await key.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: Number(stored.nonce),
      to: key.address,
      value: 0n,
      gas: 21_000n,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    kms.destroy()
    await chain.publicClient.request({ method: 'eth_sendRawTransaction', params: [foreign] })
    await chain.testClient.mine({ blocks: 1 })
    await chain.testClient.setAutomine(true)

    await waitFor(
      async () => {
        await fastForwardRetries(t)
        return (await confirmJobOf(a.id))?.state === 'dead'
      },
      { timeoutMs: 60_000, intervalMs: 300, what: `A's own order_confirm dead (log: ${worker.logFile})` },
    )
    const dead = await confirmJobOf(a.id)
    expect(dead).toMatchObject({ attempts: 5 })
    expect(dead?.lastError).toMatch(
      new RegExp(
        `nonce ${stored.nonce} of signer ${stored.signerAddress} was used by a transaction mintdesk did not sign`,
      ),
    )
    expect((await orderRow(a.id))?.status).toBe('submitted')
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, a.id))
    expect(events.filter((e) => e.event === 'enqueued' && e.task === TASK.orderConfirm).map((e) => e.detail)).toEqual([
      expect.stringMatching(/hands it over: nonce \d+ is used on chain, and no transaction of the order has a receipt/),
    ])
    expect(events.filter((e) => e.event === 'dead')).toHaveLength(1)
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobEvents)
            .where(and(eq(jobEvents.orderId, a.id), eq(jobEvents.event, 'nonce_mismatch')))
        ).length === 1,
      {
        timeoutMs: 15_000,
        what: 'the nonce health check reports it',
      },
    )

    // the signer's next order: confirmed by the confirmer, which leaves A to its dead letter
    const [b] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await orderRow(b.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `B confirmed (log: ${worker.logFile})`,
    })
    const confirmedB = (
      await t.db
        .select()
        .from(jobEvents)
        .where(and(eq(jobEvents.orderId, b.id), eq(jobEvents.event, 'confirmed')))
    )[0]
    expect(confirmedB?.task).toBe(TASK.signerConfirm)
    expect((await confirmJobOf(a.id))?.state).toBe('dead')
    // B minted once, A never; A's nonce stays signed: what to do
    // about a key used elsewhere is an operator's decision (docs/decisions/026-nonces-in-postgres.md)
    const minted = await chain.publicClient.getContractEvents({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      eventName: 'Minted',
      fromBlock: 0n,
    })
    expect(minted.map((l) => l.args.orderId)).toEqual([orderIdToBytes32(b.id)])
    const nonces = await t.db.select().from(signerNonces).orderBy(asc(signerNonces.nonce))
    expect(nonces.map((n) => `${n.nonce}:${n.state}`)).toEqual(['0:signed', '1:mined'])
  }, 120_000)
})
