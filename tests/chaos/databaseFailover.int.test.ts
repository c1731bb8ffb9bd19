import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEV_DATABASE_PASSWORDS } from '@/cli/config/devDatabasePasswords'
import { createDb, type DbClient } from '@/db/client'
import { migrate } from '@/db/migrate'
import { databaseUrlAs } from '@/scripts/stack/databaseUrlAs'
import { type EmbeddedPostgres, startPostgres } from '@/scripts/stack/postgres'
import { runAsWith } from '@/tests/attack/fakeSession'
import { handlerApprovals } from '@/tests/attack/handlerApprovals'
import { tolerateKnownPostgresJsCrash, workerDeathCause } from '@/tests/attack/knownIssues'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { insertTestUsers } from '@/tests/helpers/users'
import { workerEnv } from '@/tests/helpers/workerProcess'
import { type Api, createHandlerApi } from './api'
import { checkInvariants, summarizeReport } from './checkInvariants'
import { planOrders, stockPlannedOrders, submitAll, tallySubmits } from './orders'
import { countEvents, restartPostgresUnderLoad, waitForSettled } from './scenarios'
import { createWorkerPool, startSupervisor, type WorkerPool } from './workerPool'

// A database failover (RDS Multi-AZ drops every connection and answers again at
// the same name one to two minutes later): this file's own embedded Postgres is stopped for
// 30 s in the middle of a burst of orders, then started again on the same data and port (the
// 90 s outage runs in `npm run test:chaos`: tests/chaos/productionFaults.ts).
// Meanwhile /api/ready answers 503 and the intake a quick 5xx; the client retries with its
// Idempotency-Key. The workers either ride it out or exit (knownIssues.ts) and are
// restarted by a supervisor, as ECS would. Afterwards every accepted order is minted once.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

const ORDERS = 30
const DOWN_MS = 30_000
const log = (l: string) => console.log(`[chaos:db-failover] ${l}`)

describe('a 30 s database failover mid-burst', () => {
  let dir: string
  let pg: EmbeddedPostgres
  let checks: DbClient
  let chain: ChainFixture
  let api: Api
  let pool: WorkerPool | undefined
  let closeDb: () => Promise<void> = async () => {}
  const known = tolerateKnownPostgresJsCrash()

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-db-failover-'))
    ;[pg, chain] = await Promise.all([
      startPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true, database: 'mintdesk' }),
      startChainFixture({ signers: 2 }),
    ])
    await migrate({
      databaseUrl: pg.url,
      roles: { web: { password: DEV_DATABASE_PASSWORDS.web }, worker: { password: DEV_DATABASE_PASSWORDS.worker } },
    })
    checks = createDb({ url: pg.url, max: 2, name: 'failover-checks' })
    const users = await insertTestUsers(checks.db)
    // every order waits for an approval: the dev approver signs each one through the API (submitOrder's approveAs)
    const approvals = await handlerApprovals(checks.db, chain)
    process.env.DATABASE_URL = databaseUrlAs(pg.url, { role: 'web' })
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeDb = () => getWebDb().close()
    const mint = await import('@/app/api/gold/mint/route')
    const ready = await import('@/app/api/ready/route')
    api = createHandlerApi({
      origin: 'http://localhost:3000',
      routes: { 'POST /api/gold/mint': mint.POST, 'GET /api/ready': ready.GET, ...approvals.routes },
      runAs: runAsWith({ ...users, approver: approvals.approver }),
    })
  })
  afterAll(async () => {
    await Promise.all((pool?.live() ?? []).map((w) => w.stop('SIGKILL')))
    await closeDb()
    await checks?.close()
    await chain?.stop()
    await pg?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
    known.restore()
  })

  it('503 while it is down, nothing lost or doubled after', async () => {
    const port = pg.port
    const dataDir = path.join(dir, 'pg')
    // production's takeover threshold: a worker silent through the outage is fenced and replaced, its jobs taken over
    pool = createWorkerPool({
      env: workerEnv({ databaseUrl: pg.url, chain, env: { WORKER_STALE_AFTER_MS: '30000' } }),
      prefix: 'dbf',
    })
    const p = pool
    await Promise.all([p.start(), p.start()])
    const recipients = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]
    const all = planOrders({ runId: `DBF${Date.now().toString(36)}`, count: ORDERS + 2, recipients, seed: 18 })
    await stockPlannedOrders(checks.db, all)
    const orders = all.slice(0, ORDERS)
    const probes = all.slice(ORDERS)

    const supervisor = startSupervisor({ pool: p, keep: 2, log })
    // a burst spread over ~10 s: the outage begins in its middle, the rest wait for the database
    const submitting = submitAll(api, {
      approveAs: 'approver',
      orders,
      concurrency: 3,
      perSecond: 3,
      giveUpAfterMs: DOWN_MS + 90_000,
      requestTimeoutMs: 10_000,
    })
    await new Promise((r) => setTimeout(r, 4_000))
    const outage = await restartPostgresUnderLoad({
      pg: {
        stop: () => pg.stop(),
        start: async () => {
          pg = await startPostgres({ dataDir, ephemeral: true, database: 'mintdesk', preferredPort: port })
        },
      },
      api,
      downForMs: DOWN_MS,
      probes,
      log,
    })
    expect(pg.port, 'same port after the failover').toBe(port)
    const outcomes = [
      ...(await submitting),
      ...(await submitAll(api, { orders: probes, concurrency: 2, approveAs: 'approver' })),
    ]
    const tally = tallySubmits(outcomes)
    log(
      `outage: down ${outage.downMs} ms, ready ${JSON.stringify(outage.readyWhileDown)}, ready again after ${outage.recoveredAfterMs} ms; intake ${JSON.stringify(tally.byStatus)}; postgres.js null-socket crashes in this process: ${known.seen.length}`,
    )

    expect(Object.keys(outage.readyWhileDown), '/api/ready while down').toEqual(['503'])
    for (const probe of outage.intakeWhileDown) expect(probe.status, 'intake while down').toBeGreaterThanOrEqual(500)
    expect(tally.refused).toEqual([])
    expect(tally.accepted).toBe(ORDERS + probes.length)

    await waitForSettled({
      sql: checks.sql,
      chain: chain.publicClient,
      timeoutMs: 150_000,
      log,
      liveWorkerIds: () => p.liveIds(),
    })
    await supervisor.stop()
    const causes = p.crashes().map((c) => ({ c, cause: workerDeathCause(readFileSync(c.logFile, 'utf8')) }))
    log(
      `workers died and replaced: ${JSON.stringify(causes.map((x) => x.cause ?? `unknown (${x.c.logFile})`))}; ${p.startFailures()} start(s) failed while it was down`,
    )
    const report = await checkInvariants({
      sql: checks.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      expectedOrderIds: outcomes.map((o) => o.orderId as string),
      liveWorkerIds: p.liveIds(),
    })
    log(`${summarizeReport(report)}; events ${JSON.stringify(await countEvents(checks.sql))}`)
    expect(report.problems).toEqual([])
    expect(report.confirmed).toBe(ORDERS + probes.length)
    const exits = await p.stopAll()
    expect(exits.map((e) => e.code)).toEqual(exits.map(() => 0))
  }, 420_000)
})
