import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces, signers } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { importTestBarList, stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { barStates } from '@/tests/helpers/orderWithListedBars'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// The worker's check before every signature (docs/architecture.md invariant 4,
// worker/mint/checkBeforeSigning.ts), with a real worker, Postgres, anvil and KMS: a
// refused mint is dead at once with a reason an admin reads, its order failed and its
// bars freed, and nothing reaches KMS, the nonces or the chain.

describe('the check before signing', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let u: TestUsers
  // bars of 401.125 oz at 999.9: 401.084 fine oz each
  const VAULT = 'CHK-1'
  let dropped: { orderId: string; serials: string[] }
  let tampered: { orderId: string; serials: string[] }
  let dropList: { listId: string }

  const order = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const sendJob = async (id: string) =>
    (
      await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, TASK.mintSend)))
    )[0]
  const eventsOf = async (id: string) =>
    (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, id)).orderBy(jobEvents.at)).map((e) => e.event)
  const totalSupply = () =>
    chain.publicClient.readContract({ address: chain.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  const mintedCount = async () =>
    (
      await chain.publicClient.getContractEvents({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        eventName: 'Minted',
        fromBlock: 0n,
      })
    ).length
  const nextNonces = async () =>
    (await t.db.select({ a: signers.address, n: signers.nextNonce }).from(signers)).map((s) => `${s.a}:${s.n}`).sort()

  async function mint(serials: string[]): Promise<string> {
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request: buildMintRequest({ vault: VAULT, bars: serials.map((serial) => ({ serial })) }),
    })
    await approveWithDevKeys(t.db, { orderId: accepted.orderId })
    return accepted.orderId
  }

  /** the order was refused: dead after one attempt with the reason, failed, freed, nothing signed */
  async function expectRefused(orderId: string, serials: string[], reason: RegExp) {
    await waitFor(async () => (await sendJob(orderId))?.state === 'dead', {
      timeoutMs: 30_000,
      what: `mint_send of ${orderId} dead (log: ${worker.logFile})`,
    })
    const o = await order(orderId)
    expect(o).toMatchObject({ status: 'failed', nonce: null, signerAddress: null, txHash: null })
    expect(o?.failureReason).toMatch(reason)
    expect(o?.failureReason).toMatch(/^refused to sign: /)
    const job = await sendJob(orderId)
    expect(job).toMatchObject({ state: 'dead', attempts: 1 })
    expect(job?.lastError).toMatch(reason)
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, orderId))).toEqual([])
    expect(await t.db.select().from(signerNonces).where(eq(signerNonces.orderId, orderId))).toEqual([])
    const events = await eventsOf(orderId)
    expect(events).toEqual(expect.arrayContaining(['refused', 'dead']))
    expect(events).not.toContain('nonce_reserved')
    expect(events).not.toContain('signed')
    for (const bar of await barStates(t.db, serials)) expect(bar.order_id).toBeNull()
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
    await allowRecipients(t.db, [TEST_RECIPIENT]) // the intake and the worker refuse a recipient off the allowlist
    // two orders set up while no worker runs: one loses a bar from the list, one is tampered with
    await stockBars(t.db, {
      vault: VAULT,
      bars: ['DROP-1', 'DROP-2', 'TAMP-1', 'KEEP-1'].map((serial) => ({ serial })),
    })
    dropped = { orderId: await mint(['DROP-1', 'DROP-2']), serials: ['DROP-1', 'DROP-2'] }
    tampered = { orderId: await mint(['TAMP-1']), serials: ['TAMP-1'] }
    dropList = await importTestBarList(t.db, {
      vault: VAULT,
      bars: ['DROP-1', 'TAMP-1', 'KEEP-1'].map((serial) => ({ serial })),
    })
    await t.db.execute(sql`update mint_orders set amount_wei = amount_wei * 2 where id = ${tampered.orderId}::uuid`)
    worker = startWorkerProcess({ name: 'check-before-signing', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.stop()
    await t?.drop()
  })

  it('a pending order whose bar was dropped from the list before the worker ran is refused; nothing is sent', async () => {
    // the bars are tied to the vault's latest custodian-signed list (worker/approvals/buildMintCall.ts)
    await expectRefused(
      dropped.orderId,
      dropped.serials,
      new RegExp(
        `bar DROP-2 / Valcambi SA of order ${dropped.orderId} is not on the custodian-signed list ${dropList.listId} of CHK-1`,
      ),
    )
    // the bar still listed is free again; the dropped one, no longer listed, is withdrawn
    expect(await barStates(t.db, dropped.serials)).toEqual([
      { serial: 'DROP-1', status: 'available', order_id: null },
      { serial: 'DROP-2', status: 'withdrawn', order_id: null },
    ])
    expect(await mintedCount()).toBe(0)
  }, 60_000)

  it('a tampered amount_wei is refused, the reason in the dead letter', async () => {
    await expectRefused(
      tampered.orderId,
      tampered.serials,
      /the order's amount 802\.168 oz is not the fine weight of its 1 bar, 401\.084 oz/,
    )
    expect(await totalSupply()).toBe(0n)
  }, 60_000)

  it('a list that drops a bar backing confirmed tokens marks it missing, and the next mint that would leave supply above reserves is refused before it signs', async () => {
    await stockBars(t.db, { vault: VAULT, bars: ['BACK-1', 'BACK-2', 'NEXT-1'].map((serial) => ({ serial })) })
    const backed = await mint(['BACK-1', 'BACK-2'])
    await waitFor(async () => (await order(backed))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `the first mint confirmed (log: ${worker.logFile})`,
    })
    expect(await totalSupply()).toBe(802_168n * 10n ** 15n)

    // the custodian's next list lacks BACK-2: it is missing, the reserves are short of it
    const imported = await importTestBarList(t.db, {
      vault: VAULT,
      bars: ['DROP-1', 'TAMP-1', 'KEEP-1', 'BACK-1', 'NEXT-1'].map((serial) => ({ serial })),
    })
    expect(imported.missing).toEqual([expect.objectContaining({ serial: 'BACK-2', orderId: backed })])
    expect(await barStates(t.db, ['BACK-2'])).toEqual([{ serial: 'BACK-2', status: 'missing', order_id: backed }])

    const minted = await mintedCount()
    const nonces = await nextNonces()
    const next = await mint(['NEXT-1'])
    await expectRefused(
      next,
      ['NEXT-1'],
      /supply 802\.168 oz \+ this 401\.084 oz would exceed reserves 802\.168 oz by 401\.084 oz/,
    )
    expect(await mintedCount()).toBe(minted)
    expect(await totalSupply()).toBe(802_168n * 10n ** 15n)
    expect(await nextNonces()).toEqual(nonces)
    expect(await barStates(t.db, ['NEXT-1'])).toEqual([{ serial: 'NEXT-1', status: 'available', order_id: null }])
    // the confirmed order is untouched
    expect(await order(backed)).toMatchObject({ status: 'confirmed' })
  }, 90_000)
})
