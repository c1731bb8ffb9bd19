import { and, eq, sql } from 'drizzle-orm'
import { decodeFunctionData, encodeFunctionData, getAddress, type Hex, parseTransaction } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobRecords, mintOrders } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { createKmsAccount } from '@/worker/signer/createKmsAccount'
import { createKmsClient } from '@/worker/signer/createKmsClient'

// The worker never sends stored bytes it did not verify (docs/architecture.md invariant 7,
// worker/mint/verifyStoredTx.ts). A worker signs an order's mint and dies before sending
// it; then the stored raw transaction is replaced in the database (as the owner: the web's
// role cannot write chain_txs) by bytes that still look right: signed by our own KMS key,
// to the minter, at the same nonce, attestAndMint with the same list and approvals but an intent minting to another
// address; or signed by a key
// that is not ours. The next worker refuses to send them: the job is dead with the reason,
// nothing reaches the chain.

describe('a stored transaction changed in the database', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]
  const MALLORY = getAddress(privateKeyToAddress(generatePrivateKey()))

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  /** one order signed and stored by a worker that dies before broadcasting it */
  async function signedNotSent() {
    const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1' } })
    const victim = startWorkerProcess({ name: 'victim', env: { ...env, MINTDESK_FAILPOINTS: 'after_sign' } })
    workers.push(victim)
    await victim.waitForLine((l) => l.msg === 'worker started')
    const [order] = await createTestOrders(t.db, { count: 1, to })
    expect((await victim.exited).signal).toBe('SIGKILL')
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
    expect(stored).toBeDefined()
    return { order, stored, env }
  }

  async function expectRefusedToSend(orderId: string, env: Record<string, string>, reason: RegExp) {
    const rescuer = startWorkerProcess({ name: 'rescuer', env })
    workers.push(rescuer)
    const sendJob = async () =>
      (
        await t.db
          .select()
          .from(jobRecords)
          .where(and(eq(jobRecords.orderId, orderId), eq(jobRecords.task, TASK.mintSend)))
      )[0]
    await waitFor(async () => (await sendJob())?.state === 'dead', {
      timeoutMs: 60_000,
      what: `mint_send of ${orderId} dead (log: ${rescuer.logFile})`,
    })
    expect((await sendJob())?.lastError).toMatch(/stored transaction does not match its order/)
    expect((await sendJob())?.lastError).toMatch(reason)
    const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
    expect(order?.status).toBe('failed')
    expect(order?.failureReason).toMatch(/stored transaction does not match its order/)
    // nothing was sent: no Minted event, no tokens at the forged recipient, the tx unknown to the node
    const minted = await chain.publicClient.getContractEvents({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      eventName: 'Minted',
      fromBlock: 0n,
    })
    expect(minted).toEqual([])
    expect(
      await chain.publicClient.readContract({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'balanceOf',
        args: [MALLORY],
      }),
    ).toBe(0n)
    const [row] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, orderId))
    expect(row?.broadcastAt).toBeNull()
    await rescuer.stop('SIGTERM')
  }

  it('our own signature over another recipient, same nonce and fees: refused, not sent', async () => {
    const { order, stored, env } = await signedNotSent()
    const original = parseTransaction(stored.rawTx as Hex)
    const kms = createKmsClient({
      region: 'us-east-1',
      endpoint: chain.kmsEndpoint,
      env: { AWS_ACCESS_KEY_ID: 'mintdesk-local', AWS_SECRET_ACCESS_KEY: 'mintdesk-local' },
    })
    const keyId =
      chain.kmsKeyIds[chain.signerAddresses.findIndex((a) => a.toLowerCase() === stored.signerAddress.toLowerCase())] ??
      ''
    const ours = await createKmsAccount(kms, { keyId })
    // the stored attestAndMint call with its intent's recipient changed
    const call = decodeFunctionData({ abi: goldMinterAbi, data: original.data ?? '0x' })
    if (call.functionName !== 'attestAndMint') throw new Error(`stored call is ${call.functionName}`)
    const [list, custodian, listSignature, intent, approvals] = call.args
    const forged = await ours.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: Number(stored.nonce),
      to: chain.minterAddress,
      gas: original.gas,
      maxFeePerGas: original.maxFeePerGas,
      maxPriorityFeePerGas: original.maxPriorityFeePerGas,
      data: encodeFunctionData({
        abi: goldMinterAbi,
        functionName: 'attestAndMint',
        args: [list, custodian, listSignature, { ...intent, to: MALLORY }, approvals],
      }),
    })
    kms.destroy()
    await t.db.execute(sql`update chain_txs set raw_tx = ${forged} where hash = ${stored.hash}`)
    await expectRefusedToSend(order.id, env, /its calldata is not attestAndMint of the order's intent/)
  }, 120_000)

  it("another key's signature: refused, not sent", async () => {
    const { order, stored, env } = await signedNotSent()
    const original = parseTransaction(stored.rawTx as Hex)
    const stranger = privateKeyToAccount(generatePrivateKey())
    const forged = await stranger.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: Number(stored.nonce),
      to: chain.minterAddress,
      gas: original.gas,
      maxFeePerGas: original.maxFeePerGas,
      maxPriorityFeePerGas: original.maxPriorityFeePerGas,
      data: original.data,
    })
    await t.db.execute(sql`update chain_txs set raw_tx = ${forged} where hash = ${stored.hash}`)
    await expectRefusedToSend(order.id, env, new RegExp(`signed by ${stranger.address}, not by`, 'i'))
  }, 120_000)
})
