import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '@/db/client'
import { createDb } from '@/db/client'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { ozToWei } from '@/lib/money/ozToWei'
import { approveMintOrder } from '@/lib/web/approvals/approveMintOrder'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { barStates } from '@/tests/helpers/orderWithListedBars'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// Four eyes enforced by the signer (docs/architecture.md invariants 6 and 7,
// worker/mint/checkApproval.ts), with a real worker, Postgres, anvil and KMS. The worker
// has its own APPROVAL_THRESHOLD_OZ (500 oz here): an order at or above it that no second
// person approved gets no signature, even when its row says `pending` and its mint_send
// job exists, as a compromised web (writing as mintdesk_web) could make them. Approved
// orders, and orders below the threshold, are signed as before.

describe('the worker refuses an order that needed an approval it lacks', () => {
  let t: TestDatabase
  let web: { db: Db; close: () => Promise<void> }
  let chain: ChainFixture
  let worker: WorkerProcess
  let u: TestUsers
  const VAULT = 'APG-1'
  // bars of 401.125 oz at 999.9: 401.084 fine oz each; two make 802.168 oz (over 500), one stays under
  const THRESHOLD_OZ = '500'

  const order = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const sendJob = async (id: string) =>
    (
      await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, TASK.mintSend)))
    )[0]
  const eventsOf = async (id: string) =>
    await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, id)).orderBy(jobEvents.at, jobEvents.id)
  const balance = () =>
    chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'balanceOf',
      args: [TEST_RECIPIENT],
    })

  /** an order written as the web's role would, with the given threshold at intake */
  async function intake(serials: string[], approvalThresholdWei: bigint | null): Promise<string> {
    const request = buildMintRequest({ vault: VAULT, bars: serials.map((serial) => ({ serial })) })
    return (
      await createMintOrder(web.db, { session: intakeSession(u.staff), maxAttempts: 5, approvalThresholdWei, request })
    ).orderId
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    await allowRecipients(t.db, [TEST_RECIPIENT])
    await stockBars(t.db, {
      vault: VAULT,
      bars: ['BIG-1', 'BIG-2', 'OK-1', 'OK-2', 'SMALL-1'].map((serial) => ({ serial })),
    })
    worker = startWorkerProcess({
      name: 'approval-gate',
      env: workerEnv({ databaseUrl: t.url, chain, env: { APPROVAL_THRESHOLD_OZ: THRESHOLD_OZ } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  it('a pending order of 802.168 oz with its job but no approval (written around the approval) is refused: dead, failed with the reason, bars freed, nothing signed', async () => {
    // what a compromised web can write: below ITS threshold (null: none), so pending with a job at once
    const orderId = await intake(['BIG-1', 'BIG-2'], null)
    expect(await order(orderId)).toMatchObject({ status: 'pending', approvedBy: null })

    await waitFor(async () => (await sendJob(orderId))?.state === 'dead', {
      timeoutMs: 30_000,
      what: `mint_send of ${orderId} dead (log: ${worker.logFile})`,
    })
    const o = await order(orderId)
    expect(o).toMatchObject({ status: 'failed', nonce: null, signerAddress: null, txHash: null })
    expect(o?.failureReason).toBe(
      `refused to sign: order ${orderId} was not approved by a second person (802.168 oz is at or above the approval threshold of 500.000 oz)`,
    )
    const job = await sendJob(orderId)
    expect(job).toMatchObject({ state: 'dead', attempts: 1 })
    expect(job?.lastError).toContain('was not approved by a second person')
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, orderId))).toEqual([])
    expect(await t.db.select().from(signerNonces).where(eq(signerNonces.orderId, orderId))).toEqual([])
    const events = await eventsOf(orderId)
    expect(events.find((e) => e.event === 'refused')).toMatchObject({ data: { check: 'approval_missing' } })
    expect(events.map((e) => e.event)).not.toContain('signed')
    for (const bar of await barStates(t.db, ['BIG-1', 'BIG-2']))
      expect(bar).toMatchObject({ status: 'available', order_id: null })
    expect(await balance()).toBe(0n)
  }, 60_000)

  it('the same amount approved by a second person is signed and confirmed', async () => {
    const orderId = await intake(['OK-1', 'OK-2'], ozToWei(THRESHOLD_OZ))
    expect(await order(orderId)).toMatchObject({ status: 'awaiting_approval', jobId: null })
    const approver = await insertUser(t.db, 'approver')
    await approveMintOrder(web.db, { orderId, user: { ...approver, role: 'approver' }, maxAttempts: 5 })
    await waitFor(async () => (await order(orderId))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `the approved order confirmed (log: ${worker.logFile})`,
    })
    expect(await balance()).toBe(802_168n * 10n ** 15n)
  }, 60_000)

  it("an order below the worker's threshold needs no approval", async () => {
    const orderId = await intake(['SMALL-1'], null)
    await waitFor(async () => (await order(orderId))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `the small order confirmed (log: ${worker.logFile})`,
    })
    expect(await order(orderId)).toMatchObject({ approvedBy: null })
    expect(await balance()).toBe((802_168n + 401_084n) * 10n ** 15n)
  }, 60_000)
})
