import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Api, createHandlerApi } from '@/tests/chaos/api'
import { checkInvariants, summarizeReport } from '@/tests/chaos/checkInvariants'
import { planOrders, stockPlannedOrders, submitAll, tallySubmits } from '@/tests/chaos/orders'
import { countEvents, type DeployReport, rollingDeploy, waitForSettled } from '@/tests/chaos/scenarios'
import { createWorkerPool, startKiller, type WorkerPool } from '@/tests/chaos/workerPool'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createRng } from '@/tests/helpers/createRng'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers } from '@/tests/helpers/users'
import { workerEnv } from '@/tests/helpers/workerProcess'
import { runAsWith } from './fakeSession'
import { handlerApprovals } from './handlerApprovals'

// Chaos, short form (the long form is `npm run test:chaos`): orders through the real
// intake route while a driver SIGKILLs a random worker every few seconds and starts a
// new one. Then: every order confirmed or dead with a reason, exactly one Minted event
// per confirmed order, supply = confirmed sum, no nonce gap, no job left locked by a dead
// worker. Halfway, a rolling deploy SIGTERMs each worker while it holds jobs: each exits 0
// and leaves nothing locked; so does the final SIGTERM of every worker.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)

const ORDERS = Number(process.env.CHAOS_SHORT_ORDERS ?? 60)
const WORKERS = 2
const SEED = Number(process.env.CHAOS_SEED ?? 6)

describe('orders while workers are SIGKILLed', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let api: Api
  let pool: WorkerPool | undefined
  let closeDb: () => Promise<void> = async () => {}

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 2 })])
    const users = await insertTestUsers(t.db)
    const approvals = await handlerApprovals(t.db, chain)
    process.env.DATABASE_URL = t.roleUrl('web') // the web's own role: the route runs on its grants
    // every order waits for an approval: the dev approver signs each one through the API (submitOrder's approveAs)
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeDb = () => getWebDb().close()
    const mint = await import('@/app/api/gold/mint/route')
    api = createHandlerApi({
      origin: 'http://localhost:3000',
      routes: { 'POST /api/gold/mint': mint.POST, ...approvals.routes },
      runAs: runAsWith({ ...users, approver: approvals.approver }),
    })
  })
  afterAll(async () => {
    await Promise.all((pool?.live() ?? []).map((w) => w.stop('SIGKILL')))
    await closeDb()
    await chain?.stop()
    await t?.drop()
  })

  it(`${ORDERS} orders, ${WORKERS} workers, a SIGKILL every 2-4 s: nothing lost, nothing minted twice`, async () => {
    const t0 = Date.now()
    const rng = createRng(SEED)
    pool = createWorkerPool({ env: workerEnv({ databaseUrl: t.url, chain }), prefix: 'chaos' })
    const p = pool
    await Promise.all(Array.from({ length: WORKERS }, () => p.start()))
    const recipients = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders = planOrders({ runId: `CS${Date.now().toString(36)}`, count: ORDERS, recipients, seed: SEED })
    await stockPlannedOrders(t.db, orders)

    const log = (l: string) => console.log(`[attack:chaos] ${l}`)
    let killer = startKiller({ pool: p, everyMs: [2_000, 4_000], rng, keep: WORKERS, log })
    let kills = 0
    const submitting = submitAll(api, { orders, concurrency: 4, perSecond: 3, approveAs: 'approver' })
    // a deploy in the middle: the killer pauses, each worker is replaced and sent SIGTERM with its jobs running
    await new Promise((r) => setTimeout(r, 8_000))
    await killer.stop()
    kills += killer.kills()
    const deploy: DeployReport = await rollingDeploy({ pool: p, sql: t.sql, size: WORKERS, log })
    killer = startKiller({ pool: p, everyMs: [2_000, 4_000], rng, keep: WORKERS, log })
    const outcomes = await submitting
    // keep killing while the last orders are signed and confirmed, at least 3 kills in all
    // (a worker is only killed once it runs: on a busy machine they take seconds to start)
    const until = Date.now() + 30_000
    do await new Promise((r) => setTimeout(r, 2_000))
    while (kills + killer.kills() < 3 && Date.now() < until)
    await killer.stop()
    kills += killer.kills()
    expect(deploy.problems).toEqual([])
    expect(deploy.replaced).toBe(WORKERS)
    const tally = tallySubmits(outcomes)
    expect(tally.refused).toEqual([])
    expect(tally.hangs).toBe(0)
    expect(kills).toBeGreaterThanOrEqual(3)

    const settleMs = await waitForSettled({
      sql: t.sql,
      chain: chain.publicClient,
      timeoutMs: 90_000,
      log: (l) => console.log(`[attack:chaos] ${l}`),
      liveWorkerIds: () => p.liveIds(),
    })
    const report = await checkInvariants({
      sql: t.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      expectedOrderIds: outcomes.map((o) => o.orderId as string),
      liveWorkerIds: p.liveIds(),
    })
    console.log(
      `[attack:chaos] ${summarizeReport(report)}; kills ${kills}, deploy ${JSON.stringify(deploy.exits.map((e) => ({ held: e.heldAtSigterm, ms: e.ms, exit: e.code })))}, workers started ${p.stats.started}, settled ${settleMs} ms after the last order; events ${JSON.stringify(await countEvents(t.sql))}`,
    )
    expect(report.problems).toEqual([])
    expect(report.orders).toBe(ORDERS)
    expect(report.confirmed + report.failed).toBe(ORDERS)
    expect(report.lost).toEqual([])
    expect(report.doubled).toEqual([])

    // a deploy's SIGTERM: every worker exits 0 and hands back what it held
    const exits = await p.stopAll()
    expect(exits.map((e) => [e.name, e.code, e.signal])).toEqual(exits.map((e) => [e.name, 0, null]))
    const locked = await t.sql`select id from graphile_worker._private_jobs where locked_by is not null`
    expect(locked).toEqual([])
    console.log(`[attack:chaos] done in ${Date.now() - t0} ms`)
  }, 240_000)
})
