import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { type StartAnvilReturnType, startAnvil } from '@/scripts/stack/anvil'
import { type Api, createHandlerApi } from '@/tests/chaos/api'
import { checkInvariants, summarizeReport } from '@/tests/chaos/checkInvariants'
import { planOrders, stockPlannedOrders, submitAll, tallySubmits } from '@/tests/chaos/orders'
import { countEvents, restartAnvilFromOlderState, waitForSettled } from '@/tests/chaos/scenarios'
import { createWorkerPool, type WorkerPool } from '@/tests/chaos/workerPool'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers } from '@/tests/helpers/users'
import { workerEnv } from '@/tests/helpers/workerProcess'
import { runAsWith } from './fakeSession'
import { handlerApprovals } from './handlerApprovals'

// The chain node restarted from its saved state: anvil keeps its chain in a
// state file; we keep a copy, let orders confirm for a few seconds, SIGKILL anvil and
// start it again from that copy on the same port. The node has forgotten those blocks:
// confirmed mints are gone from the chain and the signer's nonce went back. The workers
// must notice (missing receipts, a stalled nonce) and send the STORED transactions again:
// every order still ends minted exactly once, supply and nonces agree again.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)

const log = (l: string) => console.log(`[attack:anvil-restart] ${l}`)

describe('anvil SIGKILLed and restarted from an older saved state', () => {
  let dir: string
  let t: TestDatabase
  let chain: ChainFixture
  let anvil: StartAnvilReturnType
  let api: Api
  let pool: WorkerPool | undefined
  let closeDb: () => Promise<void> = async () => {}

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-attack-anvil-'))
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ dataDir: dir })])
    anvil = chain.anvil
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
    if (anvil !== chain?.anvil) await anvil?.stop()
    await chain?.stop()
    await t?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('the forgotten mints are sent again from the stored bytes: exactly once, nonces and supply agree', async () => {
    pool = createWorkerPool({ env: workerEnv({ databaseUrl: t.url, chain }), prefix: 'anvr' })
    const p = pool
    await Promise.all([p.start(), p.start()])
    const recipients = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]
    const plan = planOrders({ runId: `AR${Date.now().toString(36)}`, count: 36, recipients, seed: 3 })
    await stockPlannedOrders(t.db, plan)
    const accepted: string[] = []
    const submit = async (orders: typeof plan) => {
      const outcomes = await submitAll(api, { orders, concurrency: 3, approveAs: 'approver' })
      const tally = tallySubmits(outcomes)
      expect(tally.refused).toEqual([])
      accepted.push(...outcomes.map((o) => o.orderId as string))
    }
    const countMinted = async () =>
      (
        await chain.publicClient.getContractEvents({
          address: chain.tokenAddress,
          abi: goldTokenAbi,
          eventName: 'Minted',
          fromBlock: 0n,
          toBlock: 'latest',
        })
      ).length

    await submit(plan.slice(0, 10))
    await waitForSettled({ sql: t.sql, chain: chain.publicClient, timeoutMs: 60_000, log })

    const port = anvil.port
    const stateFile = path.join(dir, 'anvil-state.json')
    const restart = await restartAnvilFromOlderState({
      anvil: {
        rpcUrl: chain.rpcUrl,
        stateFile,
        kill: async () => {
          const exited = new Promise((r) => anvil.process.once('exit', r))
          anvil.process.kill('SIGKILL')
          await exited
        },
        start: async () => {
          anvil = await startAnvil({ stateFile, port, chainId: chain.chainId })
        },
      },
      rollbackMs: 3_000,
      // these orders confirm on the chain the restart will forget
      meanwhile: async () => {
        await submit(plan.slice(10, 24))
        await waitForSettled({ sql: t.sql, chain: chain.publicClient, timeoutMs: 60_000, log })
      },
      countMinted,
      log,
    })
    expect(restart.forgottenMints, 'the restart took confirmed mints away').toBeGreaterThan(0)
    expect(restart.forgottenBlocks).toBeGreaterThan(0)

    // more orders on the rewound chain: their nonces sit above the forgotten ones
    await submit(plan.slice(24))
    const settleMs = await waitForSettled({
      sql: t.sql,
      chain: chain.publicClient,
      timeoutMs: 120_000,
      log,
      liveWorkerIds: () => p.liveIds(),
    })
    const report = await checkInvariants({
      sql: t.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      expectedOrderIds: accepted,
      liveWorkerIds: p.liveIds(),
    })
    const events = await countEvents(t.sql)
    log(
      `${JSON.stringify(restart)}; settled ${settleMs} ms after; ${summarizeReport(report)}; events ${JSON.stringify(events)}`,
    )
    expect(report.problems).toEqual([])
    expect(report.confirmed).toBe(plan.length)
    expect(report.mintedEvents).toBe(plan.length)
    // one signature per order: what came back was re-sent, never re-signed
    expect(events.signed).toBe(plan.length)
    expect(
      (events.stalled ?? 0) + (events.rebroadcast ?? 0) + (events.reorged ?? 0),
      'the workers noticed',
    ).toBeGreaterThan(0)

    const exits = await p.stopAll()
    expect(exits.map((e) => e.code)).toEqual(exits.map(() => 0))
  }, 240_000)
})
