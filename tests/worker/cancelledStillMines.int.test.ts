import { eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, jobEvents, mintOrders } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// A mint broadcast, then cancelled by an admin, is mined anyway (anvil with automine off,
// the transaction waiting in its pool): its bars were never freed, so its tokens are backed
// by them and by no other order's, and the desk records the order as the chain has it.
describe('an order cancelled after its transaction was broadcast', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let web: DbClient | undefined
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  const barsOf = async (orderId: string) =>
    t.db.execute<{ status: string; order_id: string | null }>(sql`
      select b.status::text as status, b.order_id::text as order_id
      from vault_bars b join mint_order_bars mb on mb.bar_id = b.id where mb.order_id = ${orderId}::uuid`)

  it('keeps its bars held while the transaction can be mined; mined after all, the order is confirmed on them', async () => {
    const to = privateKeyToAddress(generatePrivateKey())
    const env = workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1' } })
    await chain.testClient.setAutomine(false)
    // the worker broadcasts A's mint into the pool and dies
    const victim = startWorkerProcess({
      name: 'broadcast-victim',
      env: { ...env, MINTDESK_FAILPOINTS: 'after_broadcast' },
    })
    workers.push(victim)
    await victim.waitForLine((l) => l.msg === 'worker started')
    const [a] = await createTestOrders(t.db, { count: 1, to: [to] })
    await victim.exited
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, a.id))
    const pool = await chain.publicClient.getTransaction({ hash: stored?.hash as `0x${string}` })
    expect(pool.blockNumber, 'waiting in the pool').toBeNull()

    await t.db.execute(
      sql`select graphile_worker.force_unlock_workers(array(select distinct locked_by from graphile_worker._private_jobs where locked_by is not null))`,
    )
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'cancel-as-web' })
    const admin = { id: '00000000-0000-4000-8000-00000000ad01', email: 'admin@mintdesk.test' }
    expect(await cancelJob(web.db, { jobId: a.jobId, actor: admin })).toMatchObject({ orderStatus: 'cancelled' })
    // cancelled, yet its signed mint can still be mined: its bars stay held by it
    expect(await barsOf(a.id)).toEqual([{ status: 'reserved', order_id: a.id }])
    const held = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, a.id))
    expect(held.map((e) => e.event)).toContain('bars_held')

    // the pool's transaction is mined before any worker could replace it
    await chain.testClient.mine({ blocks: 1 })
    await chain.testClient.setAutomine(true)
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: stored?.hash as `0x${string}` })
    expect(receipt.status).toBe('success')

    const worker = startWorkerProcess({ name: 'after-cancel', env })
    workers.push(worker)
    const order = await waitFor(
      async () => {
        const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, a.id))
        return row?.status === 'confirmed' && row
      },
      { timeoutMs: 30_000, what: `the mined order recorded as confirmed (log: ${worker.logFile})` },
    )
    expect(order.txHash).toBe(stored?.hash)
    // its bars back its tokens, and only its
    expect(await barsOf(a.id)).toEqual([{ status: 'backing', order_id: a.id }])
    const supply = await chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'totalSupply',
    })
    expect(supply).toBe(a.amountWei)
  }, 90_000)
})
