import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkInvariants, summarizeReport } from '@/tests/chaos/checkInvariants'
import { countEvents, crashAtFailpoints, waitForSettled } from '@/tests/chaos/scenarios'
import { createWorkerPool, type WorkerPool } from '@/tests/chaos/workerPool'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { workerEnv } from '@/tests/helpers/workerProcess'

// The chaos short form of the send path's failpoints (docs/decisions/029-batched-sending.md): beside a pool of two
// workers, one worker after another SIGKILLs itself at after_reserve, after_sign and
// after_broadcast, each while it leads a batch; then every order is confirmed exactly
// once, no nonce is lost or doubled and no job stays locked by a dead worker.
describe('SIGKILLs at every send failpoint, batches in flight', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let pool: WorkerPool | undefined

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 2 })])
  })
  afterAll(async () => {
    await Promise.all((pool?.live() ?? []).map((w) => w.stop('SIGKILL')))
    await chain?.stop()
    await t?.drop()
  })

  it('after_reserve, after_sign, after_broadcast: nothing lost, nothing minted twice, no gap', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain, env: { MINT_SEND_BATCH: '20' } })
    pool = createWorkerPool({ env, prefix: 'failpoints' })
    const p = pool
    await Promise.all([p.start(), p.start()])
    const to = Array.from({ length: 4 }, () => privateKeyToAddress(generatePrivateKey()))
    const ids: string[] = []
    const feed = async () => {
      for (const o of await createTestOrders(t.db, { count: 8, to })) ids.push(o.id)
    }
    const log = (l: string) => console.log(`[batchChaos] ${l}`)
    const crashes = await crashAtFailpoints({
      env,
      failpoints: ['after_reserve', 'after_sign', 'after_broadcast'],
      feed,
      timeoutMs: 30_000,
      log,
    })
    expect(crashes.map((c) => [c.failpoint, c.diedThere])).toEqual([
      ['after_reserve', true],
      ['after_sign', true],
      ['after_broadcast', true],
    ])

    await waitForSettled({
      sql: t.sql,
      chain: chain.publicClient,
      timeoutMs: 90_000,
      log,
      liveWorkerIds: () => p.liveIds(),
    })
    const report = await checkInvariants({
      sql: t.sql,
      chain: chain.publicClient,
      tokenAddress: chain.tokenAddress,
      expectedOrderIds: ids,
      liveWorkerIds: p.liveIds(),
    })
    log(`${summarizeReport(report)}; events ${JSON.stringify(await countEvents(t.sql))}`)
    expect(report.problems).toEqual([])
    expect(report.lost).toEqual([])
    expect(report.doubled).toEqual([])
    expect(report.confirmed).toBe(ids.length)
    const exits = await p.stopAll()
    expect(exits.map((e) => [e.name, e.code])).toEqual(exits.map((e) => [e.name, 0]))
  }, 240_000)
})
