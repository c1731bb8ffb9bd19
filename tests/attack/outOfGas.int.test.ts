import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Api, createHandlerApi } from '@/tests/chaos/api'
import { checkInvariants, summarizeReport } from '@/tests/chaos/checkInvariants'
import { planOrders, stockPlannedOrders } from '@/tests/chaos/orders'
import { countEvents, fastForwardRetries, runOutOfGas, waitForSettled } from '@/tests/chaos/scenarios'
import { createWorkerPool, type WorkerPool } from '@/tests/chaos/workerPool'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers } from '@/tests/helpers/users'
import { workerEnv } from '@/tests/helpers/workerProcess'
import { runAsWith } from './fakeSession'
import { handlerApprovals } from './handlerApprovals'

// The signer out of gas money: anvil_setBalance drains it; the orders' mint_send
// jobs fail, retry (the back-off is fast-forwarded, the attempts are real) and land in the
// dead letters, the orders failed with the reason. The signer is funded again and an
// admin retries every dead mint_send at once through the real bulk route (POST
// /api/admin/jobs/retry { state: "dead", task: "mint_send" }): all confirm, once.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)

const ORDERS = 6
const log = (l: string) => console.log(`[attack:out-of-gas] ${l}`)

describe('the signer out of gas money', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let api: Api
  let pool: WorkerPool | undefined
  let closeDb: () => Promise<void> = async () => {}

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    const users = await insertTestUsers(t.db)
    const approvals = await handlerApprovals(t.db, chain)
    process.env.DATABASE_URL = t.roleUrl('web') // the web's own role: the route runs on its grants
    // every order waits for an approval: the dev approver signs each one through the API (submitOrder's approveAs)
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeDb = () => getWebDb().close()
    const mint = await import('@/app/api/gold/mint/route')
    const bulkRetry = await import('@/app/api/admin/jobs/retry/route')
    api = createHandlerApi({
      origin: 'http://localhost:3000',
      routes: { 'POST /api/gold/mint': mint.POST, 'POST /api/admin/jobs/retry': bulkRetry.POST, ...approvals.routes },
      runAs: runAsWith({ ...users, approver: approvals.approver }),
    })
  })
  afterAll(async () => {
    await Promise.all((pool?.live() ?? []).map((w) => w.stop('SIGKILL')))
    await closeDb()
    await chain?.stop()
    await t?.drop()
  })

  it('jobs retry, land in the dead letters with the reason; funded and bulk-retried, every order confirms once', async () => {
    pool = createWorkerPool({ env: workerEnv({ databaseUrl: t.url, chain }), prefix: 'gas' })
    const p = pool
    await Promise.all([p.start(), p.start()])
    const orders = planOrders({
      runId: `OG${Date.now().toString(36)}`,
      count: ORDERS,
      recipients: [privateKeyToAddress(generatePrivateKey())],
      seed: 5,
    })
    await stockPlannedOrders(t.db, orders)

    const gas = await runOutOfGas({
      api,
      sql: t.sql,
      rpcUrl: chain.rpcUrl,
      signers: chain.signerAddresses,
      orders,
      approveAs: 'approver',
      fastForward: true,
      timeoutMs: 90_000,
      log,
    })
    log(JSON.stringify(gas))
    expect(gas.dead).toBe(ORDERS)
    expect(gas.attempts, 'every mint_send used all its attempts').toEqual(Array.from({ length: ORDERS }, () => 5))
    expect(
      gas.reasons.every((r) => /gave up after 5 attempts/.test(r) && /insufficient funds/i.test(r)),
      gas.reasons.join(' | '),
    ).toBe(true)
    expect(gas.retried).toBe(ORDERS)

    await waitForSettled({
      sql: t.sql,
      chain: chain.publicClient,
      timeoutMs: 60_000,
      onTick: () => fastForwardRetries(t.sql),
      log,
    })
    const report = await checkInvariants({
      sql: t.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      liveWorkerIds: p.liveIds(),
    })
    const events = await countEvents(t.sql)
    log(`${summarizeReport(report)}; events ${JSON.stringify(events)}`)
    expect(report.problems).toEqual([])
    expect(report.confirmed).toBe(ORDERS)
    expect(report.mintedEvents).toBe(ORDERS)
    expect(events.retried).toBe(ORDERS)
    // one signature per order, whatever the retries did
    expect(events.signed ?? 0).toBeLessThanOrEqual(ORDERS)
    const audit = await t.sql`select count(*)::int as n from audit_log where action like '%retry%'`
    expect(audit[0]?.n, 'each retry audited').toBe(ORDERS)

    const exits = await p.stopAll()
    expect(exits.map((e) => e.code)).toEqual(exits.map(() => 0))
  }, 240_000)
})
