import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { devAccountAt } from '@/lib/keys/devKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { createMinterReader } from '@/lib/web/approvals/MinterReader'
import { DEV_STAFF_EMAIL } from '@/lib/web/auth/seedDevUsers'
import { approveRedemption } from '@/lib/web/redemptions/approveRedemption'
import { getRedemptionApprovalOrThrow } from '@/lib/web/redemptions/getRedemptionApprovalOrThrow'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { signRedemptionApproval } from '@/tests/helpers/redemptions'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { startCpuTimeline } from '../system/startCpuTimeline'
import type { RedemptionApprover } from './createRedemptionApprover'
import { runBurnDrain } from './runBurnDrain'

// The bench's burn drain on a real chain, database and worker: its setup mints to the holders and sends each mint
// back to the redemption address, the redemptions are signed and queued, and one worker burns them. Every redemption
// is burned exactly once and the supply falls by their sum. The approvals here call lib/web/redemptions directly
// (no web in this test); the bench posts them to the approve endpoint (createRedemptionApprover).

const BURNS = 6

describe('runBurnDrain', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let approverUserId: string
  const running: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ blockTime: 1 })])
    await t.sql`insert into users (email, name, role) values (${DEV_STAFF_EMAIL}, 'Dev staff', 'staff')`
    const [first] = await ensureDevApprovers(t.db)
    if (!first) throw new Error('no dev approver')
    approverUserId = first.userId
  }, 60_000)

  afterAll(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('burns every redemption once, and the supply falls by their sum', async () => {
    const minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    const [approverRow] = await t.sql<{ id: string; email: string }[]>`
      select id::text as id, email from users where id = ${approverUserId}::uuid`
    const [staff] = await t.sql<{ id: string; email: string }[]>`
      select id::text as id, email from users where email = ${DEV_STAFF_EMAIL}`
    if (!approverRow || !staff) throw new Error('no approver or staff user')
    const approver: RedemptionApprover = {
      approveAll: async (ids) => {
        for (const redemptionId of ids) {
          const approval = await getRedemptionApprovalOrThrow(t.db, { redemptionId, minter })
          await approveRedemption(t.db, {
            redemptionId,
            user: { ...approverRow, role: 'approver' },
            signature: await signRedemptionApproval(approval),
            minter,
            maxAttempts: 5,
          })
        }
      },
      close: () => {},
    }
    const env = workerEnv({ databaseUrl: t.url, chain, env: { DEPOSIT_WATCH_MS: '200' } })
    const timeline = startCpuTimeline({
      groups: () => [{ name: 'worker', roots: running.map((w) => w.pid), tree: true }],
    })
    const supply = () =>
      chain.publicClient.readContract({ address: chain.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
    const supplyAtStart = await supply()

    const result = await runBurnDrain({
      sql: t.sql,
      chain: chain.publicClient,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
      minterAddress: chain.minterAddress,
      holders: [devAccountAt(1), devAccountAt(2)],
      burns: BURNS,
      staff,
      approver,
      approveConcurrency: 2,
      workerSigners: chain.signerAddresses,
      startWorker: async () => {
        const w = startWorkerProcess({ name: 'burn-drain', env })
        running.push(w)
        await w.waitForLine((l) => l.msg === 'worker started')
      },
      stopWorkers: async () => {
        await Promise.all(running.splice(0).map((w) => w.stop('SIGTERM')))
      },
      timeline,
      timeoutMs: 40_000,
      log: () => {},
    })
    timeline.stop()

    expect(result.redemptions).toBe(BURNS)
    expect(result.byStatus).toEqual({ burned: BURNS })
    const rows = await t.sql<{ id: string; amount_wei: string; mined: number }[]>`
      select r.id::text as id, r.amount_wei::text as amount_wei,
        (select count(*)::int from chain_txs c where c.redemption_id = r.id and c.mined_block is not null) as mined
      from redemptions r where r.status = 'burned'`
    expect(rows).toHaveLength(BURNS)
    const sum = rows.reduce((a, r) => a + BigInt(r.amount_wei), 0n)
    // burned once: one mined transaction and one Burned event of each id, for its amount
    const events = await chain.publicClient.getContractEvents({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      eventName: 'Burned',
      fromBlock: 0n,
    })
    expect(events).toHaveLength(BURNS)
    for (const r of rows) {
      expect(r.mined).toBe(1)
      const own = events.filter((e) => e.args.redemptionId === orderIdToBytes32(r.id))
      expect(own.map((e) => e.args.amount)).toEqual([BigInt(r.amount_wei)])
    }
    expect(result.depositedWei).toBe(sum)
    expect(result.supply.beforeWei - result.supply.afterWei).toBe(sum)
    // what the setup minted is what was burned: the supply is back where it started
    expect(await supply()).toBe(supplyAtStart)
    const [bars] = await t.sql<{ n: number }[]>`select count(*)::int as n from vault_bars where status = 'redeemed'`
    expect(bars?.n).toBe(BURNS)
  }, 90_000)
})
