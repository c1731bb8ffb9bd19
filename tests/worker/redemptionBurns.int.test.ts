import { sql } from 'drizzle-orm'
import { type Address, createWalletClient, http, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { devAccountAt } from '@/lib/keys/devKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { createMinterReader, type MinterReader } from '@/lib/web/approvals/MinterReader'
import { approveRedemption } from '@/lib/web/redemptions/approveRedemption'
import { createRedemption } from '@/lib/web/redemptions/createRedemption'
import { getRedemptionApprovalOrThrow } from '@/lib/web/redemptions/getRedemptionApprovalOrThrow'
import { checkInvariants } from '@/tests/chaos/checkInvariants'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { depositToRedemptionAddress, signRedemptionApproval } from '@/tests/helpers/redemptions'
import { insertUser } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// A redemption's burn through a worker killed with SIGKILL at each step of the one send path (after its nonce is
// reserved, after the signed burn is stored, after its broadcast): another worker takes it over and the deposit is
// burned exactly once (docs/decisions/055-redemptions.md). A frozen holder's deposit is refused; a paused token makes
// the burn wait, spending no attempt, until it is unpaused.

const OZ = 10n ** 18n
const holder = devAccountAt(6)

describe('a redemption burn under kills, a freeze and a pause', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let minter: MinterReader
  let env: Record<string, string>
  let staff: { id: string; email: string }
  let approver: { id: string; email: string; role: 'approver' }
  let bars: { serial: string; refiner: string }[]
  const workers: WorkerProcess[] = []

  const supply = () =>
    chain.publicClient.readContract({ address: chain.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  const status = async (id: string) =>
    (
      await t.db.execute<{ status: string }>(sql`select status::text as status from redemptions where id = ${id}::uuid`)
    )[0]?.status

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1', DEPOSIT_WATCH_MS: '200' } })
    staff = await insertUser(t.db, 'staff')
    const [first] = await ensureDevApprovers(t.db)
    if (!first) throw new Error('no approver')
    const [row] = await t.db.execute<{ email: string }>(sql`select email from users where id = ${first.userId}::uuid`)
    approver = { id: first.userId, email: row?.email ?? '', role: 'approver' }
    // three 1 oz mints to the holder, by a worker without failpoints
    const minting = startWorkerProcess({ name: 'redemption-crash-mints', env })
    await minting.waitForLine((l) => l.msg === 'worker started')
    const orders = await createTestOrders(t.db, { count: 3, to: [holder.address], amountWei: () => OZ })
    await waitFor(
      async () => {
        const [n] = await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from mint_orders where status = 'confirmed'`,
        )
        return n?.n === orders.length ? true : undefined
      },
      { timeoutMs: 30_000, what: 'the mints confirmed' },
    )
    await minting.stop('SIGTERM')
    bars = await t.db.execute<{ serial: string; refiner: string }>(
      sql`select serial, refiner from vault_bars where status = 'backing' order by serial`,
    )
  }, 90_000)

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  const failpoints = ['after_reserve', 'after_sign', 'after_broadcast'] as const
  failpoints.forEach((failpoint, i) => {
    it(`${failpoint}: another worker takes the burn over and burns the deposit once`, async () => {
      const bar = bars[i]
      if (!bar) throw new Error('no bar')
      const victim = startWorkerProcess({
        name: `victim-${failpoint}`,
        env: { ...env, MINTDESK_FAILPOINTS: failpoint },
      })
      workers.push(victim)
      await victim.waitForLine((l) => l.msg === 'worker started')
      const txHash = await depositToRedemptionAddress(chain, { holder, amount: OZ })
      await waitFor(
        async () =>
          (await t.db.execute(sql`select 1 from deposits where tx_hash = ${txHash}`)).length > 0 ? true : undefined,
        { timeoutMs: 20_000, what: 'the deposit seen' },
      )
      const { redemptionId } = await createRedemption(t.db, {
        input: { depositTx: txHash, bars: [bar], reference: `CRASH-${failpoint}` },
        user: staff,
        minter,
      })
      const approval = await getRedemptionApprovalOrThrow(t.db, { redemptionId, minter })
      const before = await supply()
      await approveRedemption(t.db, {
        redemptionId,
        user: approver,
        signature: await signRedemptionApproval(approval),
        minter,
        maxAttempts: 5,
      })

      const death = await victim.exited
      expect(death.signal).toBe('SIGKILL')
      expect(victim.lines.some((l) => l.failpoint === failpoint)).toBe(true)
      const rescuer = startWorkerProcess({ name: `rescuer-${failpoint}`, env })
      workers.push(rescuer)
      await waitFor(async () => ((await status(redemptionId)) === 'burned' ? true : undefined), {
        timeoutMs: 60_000,
        what: `redemption ${redemptionId} burned (logs: ${rescuer.logFile})`,
      })
      // burned once: one Burned event of the id on chain, one mined transaction, the supply down by the deposit
      const burns = await chain.publicClient.getContractEvents({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        eventName: 'Burned',
        args: { redemptionId: orderIdToBytes32(redemptionId) },
        fromBlock: 0n,
      })
      expect(burns).toHaveLength(1)
      const [mined] = await t.db.execute<{ n: number; signed: number }>(sql`
        select count(*) filter (where mined_block is not null)::int as n,
          count(*) filter (where kind = 'redemption')::int as signed
        from chain_txs where redemption_id = ${redemptionId}::uuid`)
      expect(mined).toEqual({ n: 1, signed: 1 })
      expect(await supply()).toBe(before - OZ)
      const [redeemed] = await t.db.execute<{ status: string }>(
        sql`select status::text as status from vault_bars where serial = ${bar.serial}`,
      )
      expect(redeemed?.status).toBe('redeemed')
      await rescuer.stop('SIGTERM')
    }, 120_000)
  })

  /** GoldMinter's own call on the token (anvil impersonation): the chain state a signed compliance operation makes */
  async function asMinter(functionName: 'pause' | 'unpause' | 'freeze' | 'unfreeze', account?: Address) {
    await chain.testClient.impersonateAccount({ address: chain.minterAddress })
    await chain.testClient.setBalance({ address: chain.minterAddress, value: 10n ** 18n })
    const wallet = createWalletClient({
      account: chain.minterAddress,
      chain: chain.chain,
      transport: http(chain.rpcUrl),
    })
    const hash =
      functionName === 'freeze' || functionName === 'unfreeze'
        ? await wallet.writeContract({
            address: chain.tokenAddress,
            abi: goldTokenAbi,
            functionName,
            args: [account ?? zeroAddress],
          })
        : await wallet.writeContract({ address: chain.tokenAddress, abi: goldTokenAbi, functionName })
    await chain.publicClient.waitForTransactionReceipt({ hash })
    await chain.testClient.stopImpersonatingAccount({ address: chain.minterAddress })
  }

  it('refuses the deposit of a frozen holder, and waits while the token is paused, then burns once', async () => {
    // every bar above was redeemed: mint one more to redeem here
    const worker = startWorkerProcess({ name: 'redemption-paused', env })
    workers.push(worker)
    await worker.waitForLine((l) => l.msg === 'worker started')
    const [order] = await createTestOrders(t.db, { count: 1, to: [holder.address], amountWei: () => OZ })
    if (!order) throw new Error('no order')
    await waitFor(
      async () =>
        (await t.db.execute(sql`select 1 from mint_orders where id = ${order.id}::uuid and status = 'confirmed'`))
          .length > 0
          ? true
          : undefined,
      { timeoutMs: 30_000, what: 'the mint confirmed' },
    )
    const [fresh] = await t.db.execute<{ serial: string; refiner: string }>(
      sql`select serial, refiner from vault_bars where order_id = ${order.id}::uuid`,
    )
    if (!fresh) throw new Error('no bar')
    const txHash = await depositToRedemptionAddress(chain, { holder, amount: OZ })
    await waitFor(
      async () =>
        (await t.db.execute(sql`select 1 from deposits where tx_hash = ${txHash}`)).length > 0 ? true : undefined,
      { timeoutMs: 20_000, what: 'the deposit seen' },
    )
    const input = { depositTx: txHash, bars: [fresh], reference: 'FROZEN' }

    await asMinter('freeze', holder.address)
    await expect(createRedemption(t.db, { input, user: staff, minter })).rejects.toMatchObject({
      code: 'account_frozen',
    })
    const [none] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from redemptions where deposit_tx_hash = ${txHash}`,
    )
    expect(none?.n).toBe(0)
    await asMinter('unfreeze', holder.address)

    await asMinter('pause')
    const { redemptionId } = await createRedemption(t.db, { input, user: staff, minter })
    const approval = await getRedemptionApprovalOrThrow(t.db, { redemptionId, minter })
    const before = await supply()
    await approveRedemption(t.db, {
      redemptionId,
      user: approver,
      signature: await signRedemptionApproval(approval),
      minter,
      maxAttempts: 5,
    })
    // paused: the burn waits, no attempt spent, nothing signed
    await waitFor(
      async () =>
        (
          await t.db.execute(
            sql`select 1 from job_events where order_id = ${redemptionId}::uuid and detail like '%paused%'`,
          )
        ).length > 0
          ? true
          : undefined,
      { timeoutMs: 20_000, what: 'the burn waiting for the pause' },
    )
    expect(await status(redemptionId)).toBe('pending')
    const [signed] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chain_txs where redemption_id = ${redemptionId}::uuid`,
    )
    expect(signed?.n).toBe(0)
    await asMinter('unpause')
    await waitFor(async () => ((await status(redemptionId)) === 'burned' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the burn after the unpause',
    })
    expect(await supply()).toBe(before - OZ)
    const [job] = await t.db.execute<{ state: string; attempts: number }>(
      sql`select state, attempts from job_records where order_id = ${redemptionId}::uuid and task = 'redemption_send'
        order by job_id desc limit 1`,
    )
    expect(job?.state).toBe('done')
  }, 120_000)

  it('leaves every invariant holding: supply is the mints less the burns, each burned once, nonces on chain', async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    const report = await checkInvariants({
      sql: t.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      liveWorkerIds: new Set(),
    })
    expect(report.problems).toEqual([])
    expect(report.burned).toBe(4)
    expect(report.burnedEvents).toBe(4)
    expect(report.supply).toBe(report.confirmedSum - 4n * OZ)
  })
})
