import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { devAccountAt } from '@/lib/keys/devKeys'
import { createMinterReader, type MinterReader } from '@/lib/web/approvals/MinterReader'
import { approveRedemption } from '@/lib/web/redemptions/approveRedemption'
import { createRedemption } from '@/lib/web/redemptions/createRedemption'
import { getRedemptionApprovalOrThrow } from '@/lib/web/redemptions/getRedemptionApprovalOrThrow'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { depositToRedemptionAddress, signRedemptionApproval } from '@/tests/helpers/redemptions'
import { insertUser } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// Burns batch like mints (worker/tasks/sendTask.ts): redemption_send jobs queued while no worker runs are taken by
// the first job's batch, signed on consecutive nonces, and each job ends with its own trail.

const OZ = 10n ** 18n
const REDEMPTIONS = 8
const holder = devAccountAt(6)

describe('redemption burns in one send batch', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let minter: MinterReader
  let env: Record<string, string>

  const count = async (query: ReturnType<typeof sql>) => (await t.db.execute<{ n: number }>(query))[0]?.n ?? 0

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1', DEPOSIT_WATCH_MS: '200' } })
  }, 60_000)
  afterAll(async () => {
    await chain?.stop()
    await t?.drop()
  })

  it(`${REDEMPTIONS} queued burns go as one batch: each burned once, on consecutive nonces, each job done`, async () => {
    // the holder's tokens and their deposits, seen by a worker that then stops
    const first = startWorkerProcess({ name: 'redemption-batch-mints', env })
    await first.waitForLine((l) => l.msg === 'worker started')
    await createTestOrders(t.db, { count: REDEMPTIONS, to: [holder.address], amountWei: () => OZ })
    await waitFor(
      async () =>
        (await count(sql`select count(*)::int as n from mint_orders where status = 'confirmed'`)) === REDEMPTIONS
          ? true
          : undefined,
      { timeoutMs: 60_000, what: 'the mints confirmed' },
    )
    const deposits: `0x${string}`[] = []
    for (let i = 0; i < REDEMPTIONS; i++) deposits.push(await depositToRedemptionAddress(chain, { holder, amount: OZ }))
    await waitFor(
      async () => ((await count(sql`select count(*)::int as n from deposits`)) === REDEMPTIONS ? true : undefined),
      { timeoutMs: 30_000, what: 'the deposits seen' },
    )
    await first.stop('SIGTERM')

    // every redemption asked for and signed while no worker runs: their redemption_send jobs wait in the queue
    const staff = await insertUser(t.db, 'staff')
    const [approverRow] = await ensureDevApprovers(t.db)
    if (!approverRow) throw new Error('no approver')
    const [user] = await t.db.execute<{ email: string }>(
      sql`select email from users where id = ${approverRow.userId}::uuid`,
    )
    const approver = { id: approverRow.userId, email: user?.email ?? '', role: 'approver' as const }
    const bars = await t.db.execute<{ serial: string; refiner: string }>(
      sql`select serial, refiner from vault_bars where status = 'backing' order by serial`,
    )
    const ids: string[] = []
    for (const [i, depositTx] of deposits.entries()) {
      const bar = bars[i]
      if (!bar) throw new Error('no bar')
      const { redemptionId } = await createRedemption(t.db, {
        input: { depositTx, bars: [bar], reference: `BATCH-${i}` },
        user: staff,
        minter,
      })
      const approval = await getRedemptionApprovalOrThrow(t.db, { redemptionId, minter })
      await approveRedemption(t.db, {
        redemptionId,
        user: approver,
        signature: await signRedemptionApproval(approval),
        minter,
        maxAttempts: 5,
      })
      ids.push(redemptionId)
    }
    const supplyBefore = await chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'totalSupply',
    })

    const worker = startWorkerProcess({ name: 'redemption-batch', env })
    await waitFor(
      async () =>
        (await count(sql`select count(*)::int as n from redemptions where status = 'burned'`)) === REDEMPTIONS
          ? true
          : undefined,
      { timeoutMs: 60_000, what: `every redemption burned (logs: ${worker.logFile})` },
    )
    // one job ran, its batch took the rest from the queue: one slot, one batch of every burn
    const gathered = worker.lines.filter((l) => l.msg === 'send batch gathered' && l.task === 'redemption_send')
    expect(gathered.map((l) => l.batch)).toEqual([REDEMPTIONS])
    await worker.stop('SIGTERM')

    // each burned once, on consecutive nonces of the one signer
    const burns = await chain.publicClient.getContractEvents({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      eventName: 'Burned',
      fromBlock: 0n,
    })
    expect(burns).toHaveLength(REDEMPTIONS)
    const nonces = await t.db.execute<{ nonce: string }>(
      sql`select nonce::text as nonce from chain_txs where kind = 'redemption' order by chain_txs.nonce`,
    )
    expect(nonces).toHaveLength(REDEMPTIONS)
    const first_ = BigInt(nonces[0]?.nonce ?? '0')
    expect(nonces.map((n) => BigInt(n.nonce) - first_)).toEqual(
      Array.from({ length: REDEMPTIONS }, (_, i) => BigInt(i)),
    )
    expect(
      await chain.publicClient.readContract({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'totalSupply',
      }),
    ).toBe(supplyBefore - BigInt(REDEMPTIONS) * OZ)
    // every job done with its own trail: started once, succeeded once
    const trails = await t.db.execute<{ orderId: string; state: string; started: number; succeeded: number }>(sql`
      select r.order_id::text as "orderId", r.state::text as state,
        (select count(*)::int from job_events e where e.job_id = r.job_id and e.event = 'started') as started,
        (select count(*)::int from job_events e where e.job_id = r.job_id and e.event = 'succeeded') as succeeded
      from job_records r where r.task = 'redemption_send' order by r.order_id`)
    expect(trails.map((r) => r.orderId).sort()).toEqual([...ids].sort())
    for (const r of trails) expect(r).toMatchObject({ state: 'done', started: 1, succeeded: 1 })
  }, 180_000)
})
