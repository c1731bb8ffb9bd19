import { count, eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, mintOrders } from '@/db/schema'
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { stopSigning } from '@/lib/web/signingSwitch/stopSigning'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

const ORDERS = 200

// The stop switch under load (docs/decisions/052-stop-switch.md): 200 queued orders, one admin stops signing mid
// drain; afterwards no new transaction appears on chain while what was sent is confirmed; a second admin resumes
// and every order confirms with exactly one mint.
describe('the stop switch', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    worker = startWorkerProcess({ name: 'stop-switch', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.stop()
    await t?.drop()
  })

  const confirmed = async () =>
    (await t.db.select({ n: count() }).from(mintOrders).where(eq(mintOrders.status, 'confirmed')))[0]?.n ?? 0
  const chainNonce = () => chain.publicClient.getTransactionCount({ address: chain.signerAddresses[0] ?? '0x' })

  it('stops every new transaction at once, lets the sent ones confirm, and after a second admin resumes all 200 mint once', async () => {
    const [admin, admin2] = [await insertUser(t.db, 'admin'), await insertUser(t.db, 'admin')]
    const to = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders = await createTestOrders(t.db, { count: ORDERS, to })
    await waitFor(async () => ((await t.db.select({ n: count() }).from(chainTxs))[0]?.n ?? 0) > 0, {
      timeoutMs: 30_000,
      intervalMs: 20,
      what: 'the first transactions signed',
    })

    const state = await stopSigning(t.db, { actor: admin, reason: 'incident drill' })
    expect(state).toMatchObject({ stopped: true, reason: 'incident drill', changedBy: admin.email })
    await expect(stopSigning(t.db, { actor: admin2, reason: 'again' })).rejects.toMatchObject({
      code: 'signing_stopped',
    })
    // once the stop has committed, the transactions stored so far are all there will be until the resume; those
    // broadcast before it are mined (anvil mines at once), then the signer's nonce on chain moves no more
    const signed = async () => (await t.db.select({ n: count() }).from(chainTxs))[0]?.n ?? 0
    const stored = await signed()
    await new Promise((r) => setTimeout(r, 2_000))
    const nonceAfterStop = await chainNonce()
    await new Promise((r) => setTimeout(r, 4_000))
    expect(await chainNonce(), 'transactions on chain after the stop').toBe(nonceAfterStop)
    expect(nonceAfterStop).toBeLessThanOrEqual(stored)
    expect(await signed(), 'transactions signed after the stop').toBe(stored)
    // what was sent is confirmed: the confirmations go on
    await waitFor(async () => (await confirmed()) === nonceAfterStop, {
      timeoutMs: 30_000,
      what: 'the sent orders confirmed',
    })
    expect(await confirmed()).toBeLessThan(ORDERS)
    expect(worker.lines.some((l) => String(l.msg ?? '').includes('dead'))).toBe(false)

    // the author of the resume cannot confirm it; a second admin does
    const asked = await proposeControlChange(t.db, {
      kind: 'signing.resume',
      params: { reason: 'drill over' },
      author: admin,
      context: {},
    })
    await expect(
      confirmControlChange(t.db, { changeId: asked.changeId, confirmer: admin, context: {} }),
    ).rejects.toMatchObject({ code: 'self_approval' })
    await confirmControlChange(t.db, { changeId: asked.changeId, confirmer: admin2, context: {} })
    await waitFor(async () => (await confirmed()) === ORDERS, {
      timeoutMs: 120_000,
      intervalMs: 500,
      what: `${ORDERS} confirmed (log: ${worker.logFile})`,
    })
    await verifyMints({ db: t.db, chain, orders })
  }, 200_000)
})
