import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { createWalletClient, defineChain, http, parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { freezeIntentTypedData } from '@/lib/chain/typedData'
import { TASK } from '@/lib/jobs/jobKeys'
import { devKey } from '@/lib/keys/devKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { retryJob } from '@/lib/web/admin/retryJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

describe('mints the token refuses', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess

  const order = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const jobOf = async (id: string, task: string) =>
    (
      await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, task)))
    )[0]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    worker = startWorkerProcess({ name: 'revert', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.stop()
    await t?.drop()
  })

  it('a revert in simulation is permanent: dead letter after one attempt, order failed with the decoded reason, nothing signed', async () => {
    const [bad] = await createTestOrders(t.db, { count: 1, to: [chain.tokenAddress] })
    await waitFor(async () => (await jobOf(bad.id, TASK.mintSend))?.state === 'dead', {
      timeoutMs: 20_000,
      what: 'mint_send dead',
    })
    expect(await order(bad.id)).toMatchObject({
      status: 'failed',
      failureReason: `mint reverts: the recipient ${chain.tokenAddress} is the token or the minter`,
      nonce: null,
    })
    expect(await jobOf(bad.id, TASK.mintSend)).toMatchObject({ attempts: 1, maxAttempts: 5 })
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, bad.id))).toEqual([])
  }, 40_000)

  it('a mint that reverts on chain (the recipient frozen after signing): order failed with the reason, the nonce used, no mint', async () => {
    const victim = privateKeyToAddress(generatePrivateKey())
    await chain.testClient.setAutomine(false)
    try {
      const [frozen] = await createTestOrders(t.db, { count: 1, to: [victim] })
      await waitFor(async () => (await order(frozen.id))?.status === 'submitted', {
        timeoutMs: 20_000,
        what: 'the mint broadcast',
      })
      // the compliance freeze lands first in the same block (a higher tip)
      const chainDef = defineChain({
        id: chain.chainId,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      })
      // GoldMinter freezes on an approver's signature of a FreezeIntent (the dev rule: one), relayed by anyone
      const relayer = createWalletClient({
        account: privateKeyToAccount(chain.admin.privateKey),
        chain: chainDef,
        transport: http(chain.rpcUrl),
      })
      const intent = {
        operationId: orderIdToBytes32(randomUUID()),
        account: victim,
        frozen: true,
        deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
      }
      const domain = { chainId: chain.chainId, verifyingContract: chain.minterAddress }
      const approver = devKey('approver')
      await relayer.writeContract({
        address: chain.minterAddress,
        abi: goldMinterAbi,
        functionName: 'setFrozen',
        args: [
          intent,
          [
            {
              signer: approver.address,
              signature: await approver.signTypedData(freezeIntentTypedData(domain, intent)),
            },
          ],
        ],
        gas: 300_000n,
        maxFeePerGas: parseGwei('100'),
        maxPriorityFeePerGas: parseGwei('50'),
      })
      await chain.testClient.mine({ blocks: 1 })
      await waitFor(async () => (await order(frozen.id))?.status === 'failed', {
        timeoutMs: 20_000,
        what: `the revert noticed (log: ${worker.logFile})`,
      })
      expect((await order(frozen.id))?.failureReason).toMatch(
        /mint reverted on chain: account 0x[0-9a-fA-F]{40} is frozen/,
      )
      // the signer's confirmer hands the reverted mint to an order_confirm of the order's own: its dead letter
      await waitFor(
        async () =>
          (
            await t.db
              .select()
              .from(jobRecords)
              .where(and(eq(jobRecords.orderId, frozen.id), eq(jobRecords.state, 'dead')))
          ).some((j) => j.task === TASK.orderConfirm),
        { timeoutMs: 10_000, what: 'order_confirm dead' },
      )
      const events = (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, frozen.id))).map((e) => e.event)
      expect(events).toEqual(expect.arrayContaining(['signed', 'broadcast', 'reverted', 'dead']))
      const reverted = (
        await t.db
          .select()
          .from(jobEvents)
          .where(and(eq(jobEvents.orderId, frozen.id), eq(jobEvents.event, 'reverted')))
      )[0]
      expect(reverted?.task).toBe(TASK.orderConfirm)
      const handedOver = await t.db
        .select()
        .from(jobEvents)
        .where(
          and(eq(jobEvents.orderId, frozen.id), eq(jobEvents.task, TASK.orderConfirm), eq(jobEvents.event, 'enqueued')),
        )
      expect(handedOver.map((e) => e.detail)).toEqual([
        expect.stringMatching(
          /^the confirmer of 0x[0-9a-fA-F]{40} hands it over: 0x[0-9a-f]{64} is mined in block \d+ \(reverted\)/,
        ),
      ])
      // nothing minted, and the nonce is consumed (mined), not left open
      await verifyMints({ db: t.db, chain, orders: [], unminted: [frozen] })

      // the admin retries the dead letter: the order goes back to submitted (its transaction is signed), the job looks
      // again, the same receipt reverts: failed again, dead again, still nothing minted (a new order is the way)
      const dead = (
        await t.db
          .select()
          .from(jobRecords)
          .where(and(eq(jobRecords.orderId, frozen.id), eq(jobRecords.task, TASK.orderConfirm)))
      )[0]
      const retried = await retryJob(t.db, {
        jobId: dead?.jobId ?? 0n,
        actor: { id: '00000000-0000-4000-8000-00000000ad01', email: 'admin@mintdesk.test' },
      })
      expect(retried.orderStatus).toBe('submitted')
      await waitFor(
        async () =>
          (
            await t.db
              .select()
              .from(jobEvents)
              .where(and(eq(jobEvents.orderId, frozen.id), eq(jobEvents.event, 'dead')))
          ).length === 2,
        { timeoutMs: 20_000, what: `the retried order_confirm dead again (log: ${worker.logFile})` },
      )
      expect(await order(frozen.id)).toMatchObject({
        status: 'failed',
        failureReason: expect.stringMatching(/mint reverted on chain/),
      })
      expect(
        (
          await t.db
            .select()
            .from(jobRecords)
            .where(and(eq(jobRecords.orderId, frozen.id), eq(jobRecords.task, TASK.orderConfirm)))
        ).map((j) => j.state),
      ).toEqual(['dead'])
      await verifyMints({ db: t.db, chain, orders: [], unminted: [frozen] })
    } finally {
      await chain.testClient.setAutomine(true)
    }
  }, 60_000)
})
