import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces, signers } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { ozToWei } from '@/lib/money/ozToWei'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { stockBars, type TestListBar } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { barStates } from '@/tests/helpers/orderWithListedBars'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// The mint controls at the worker's gate (worker/mint/checkBeforeSigning.ts):
// orders accepted at intake, then a recipient removed, a limit lowered or the row's
// recipient changed in the database; a real worker refuses each before it signs: dead
// at once with the reason, failed, bars freed, no nonce, no chain_txs row, nothing on chain.

describe('the controls before signing', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let u: TestUsers
  const VAULT = 'CTL-1'
  const ALICE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
  const BOB = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
  const MALLORY = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
  // 401.125 oz at 999.9: 401.084 fine oz; 100.000 oz at 999.9: 99.990 fine oz
  const SMALL = { grossOz: '100.000', fineness: '999.9' }
  const orders: Record<'removed' | 'tampered' | 'overOrder' | 'overCap', { id: string; serials: string[] }> =
    {} as never

  const order = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const sendJob = async (id: string) =>
    (
      await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, TASK.mintSend)))
    )[0]
  const nextNonces = async () =>
    (await t.db.select({ a: signers.address, n: signers.nextNonce }).from(signers)).map((s) => `${s.a}:${s.n}`).sort()
  const mintedCount = async () =>
    (
      await chain.publicClient.getContractEvents({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        eventName: 'Minted',
        fromBlock: 0n,
      })
    ).length

  async function mint(to: string, bars: TestListBar[]): Promise<{ id: string; serials: string[] }> {
    const request = buildMintRequest({ to, vault: VAULT, bars })
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request,
    })
    await approveWithDevKeys(t.db, { orderId: accepted.orderId })
    return { id: accepted.orderId, serials: bars.map((b) => b.serial) }
  }

  /** refused before signing: dead after one attempt with the reason, failed, bars freed, nothing signed */
  async function expectRefused(o: { id: string; serials: string[] }, check: string, reason: RegExp) {
    await waitFor(async () => (await sendJob(o.id))?.state === 'dead', {
      timeoutMs: 30_000,
      what: `mint_send of ${o.id} dead (log: ${worker.logFile})`,
    })
    const row = await order(o.id)
    expect(row).toMatchObject({ status: 'failed', nonce: null, signerAddress: null, txHash: null })
    expect(row?.failureReason).toMatch(/^refused to sign: /)
    expect(row?.failureReason).toMatch(reason)
    expect(await sendJob(o.id)).toMatchObject({ state: 'dead', attempts: 1, lastError: expect.stringMatching(reason) })
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, o.id))).toEqual([])
    expect(await t.db.select().from(signerNonces).where(eq(signerNonces.orderId, o.id))).toEqual([])
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, o.id)).orderBy(jobEvents.at)
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['refused', 'dead']))
    expect(events.map((e) => e.event)).not.toContain('nonce_reserved')
    expect(events.find((e) => e.event === 'refused')?.data).toMatchObject({ check })
    for (const bar of await barStates(t.db, o.serials))
      expect(bar).toMatchObject({ status: 'available', order_id: null })
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
    await allowRecipients(t.db, [ALICE, BOB])
    await stockBars(t.db, {
      vault: VAULT,
      bars: [
        { serial: 'R-1' },
        { serial: 'T-1' },
        { serial: 'M-1' },
        ...['C-1', 'C-2', 'C-3', 'C-4'].map((serial) => ({ serial, ...SMALL })),
        { serial: 'OK-1' },
      ],
    })
    // accepted at intake: allowlisted, no limits yet
    orders.removed = await mint(BOB, [{ serial: 'R-1' }])
    orders.tampered = await mint(ALICE, [{ serial: 'T-1' }])
    orders.overOrder = await mint(ALICE, [{ serial: 'M-1' }])
    orders.overCap = await mint(
      ALICE,
      ['C-1', 'C-2', 'C-3', 'C-4'].map((serial) => ({ serial, ...SMALL })),
    ) // 399.960 oz
    // then, before any worker runs: an admin removes BOB and sets limits below these orders;
    // someone with database access points an order at another address
    await t.db.execute(sql`delete from allowed_recipients where address = ${BOB.toLowerCase()}`)
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('400'), dailyCapWei: ozToWei('300') })
    await t.db.execute(sql`update mint_orders set to_address = ${MALLORY} where id = ${orders.tampered.id}::uuid`)
    worker = startWorkerProcess({ name: 'controls', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.stop()
    await t?.drop()
  })

  it('a recipient removed from the allowlist after intake: refused before signing', async () => {
    await expectRefused(orders.removed, 'recipient_not_allowed', new RegExp(`${BOB} is not on the recipient allowlist`))
  }, 60_000)

  it('a recipient changed in the database after the approvals: refused before signing (the signatures no longer verify)', async () => {
    await expectRefused(orders.tampered, 'approval_missing', /signature is not valid for this order's intent/)
  }, 60_000)

  it('the per-order limit lowered after intake: refused before signing', async () => {
    await expectRefused(
      orders.overOrder,
      'over_limit',
      /the order of 401\.084 oz is above the per-order limit of 400\.000 oz/i,
    )
  }, 60_000)

  it('the rolling 24 h cap lowered after intake: refused before signing', async () => {
    await expectRefused(orders.overCap, 'over_limit', /would pass the rolling 24 h cap of 300\.000 oz/)
    expect(await mintedCount()).toBe(0)
  }, 60_000)

  it('within the limits, to an allowed recipient, the worker signs and the mint confirms', async () => {
    const nonces = await nextNonces()
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('500'), dailyCapWei: ozToWei('1000') })
    const ok = await mint(ALICE, [{ serial: 'OK-1' }])
    await waitFor(async () => (await order(ok.id))?.status === 'confirmed', {
      timeoutMs: 30_000,
      what: `the mint within the limits confirmed (log: ${worker.logFile})`,
    })
    expect(await mintedCount()).toBe(1)
    expect(await nextNonces()).not.toEqual(nonces)
  }, 60_000)
})
