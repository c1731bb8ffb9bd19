import { eq, sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { mintOrders, notificationEvents } from '@/db/schema'
import { detachRunningJobKey } from '@/lib/jobs/detachRunningJobKey'
import { NOTIFY_DISPATCH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import type { TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { failOrderOfDeadJob } from '@/worker/db/failOrderOfDeadJob'
import { markOrderFailed } from '@/worker/db/markOrderFailed'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'
import { recordMintEvent } from './recordMintEvent'

describe('the outbox of order events (issue 16)', () => {
  let t: TestDatabase
  let u: TestUsers
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

  const eventsOf = (orderId: string) =>
    t.db.select().from(notificationEvents).where(eq(notificationEvents.orderId, orderId))
  /** every notify_dispatch job, keyed or not (id, key, attempts, locked) */
  const dispatchJobs = () =>
    t.db.execute<{ id: string; key: string | null; attempts: number; max_attempts: number; payload: unknown }>(sql`
      select j.id::text as id, j.key, j.attempts::int as attempts, j.max_attempts::int as max_attempts, j.payload
      from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
      where k.identifier = ${TASK.notifyDispatch} order by j.id`)
  /** a worker takes the waiting dispatch job, as graphile-worker's get_job does */
  const takeDispatchJob = async () => {
    const [row] = await t.db.execute<{ id: string }>(sql`
      update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test-worker', attempts = attempts + 1
      where key = ${NOTIFY_DISPATCH_JOB_KEY} and locked_at is null returning id::text as id`)
    if (!row) throw new Error('no waiting dispatch job')
    return BigInt(row.id)
  }
  const confirm = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
      await t.db.transaction((tx) =>
        markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: `0x${'ef'.repeat(32)}`, blockNumber: 9n }] }),
      )
    }
  }

  it('a confirmation writes one mint.confirmed event and its dispatch job; confirming again writes none', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
    const hash = `0x${'ab'.repeat(32)}`
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: hash, blockNumber: 7n }] }),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, { orders: [{ orderId: order.id, txHash: hash, blockNumber: 7n }] }),
    )
    const events = await eventsOf(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]?.type).toBe('mint.confirmed')
    expect(events[0]?.payload).toMatchObject({
      orderId: order.id,
      status: 'confirmed',
      to: order.to,
      amountWei: order.amountWei.toString(),
      txHash: hash,
    })
    expect((await dispatchJobs()).filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY)).toHaveLength(1)
  })

  it('a burst of events wakes ONE dispatch job (one key, preserve_run_at), in separate transactions or in one', async () => {
    await confirm(5)
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        const order = await insertOrder(tx, { requestedBy: u.staff.id, status: 'submitted' })
        await markOrdersConfirmed(tx, {
          orders: [{ orderId: order.id, txHash: `0x${'12'.repeat(32)}`, blockNumber: 10n }],
        })
      }
    })
    const jobs = await dispatchJobs()
    expect(jobs).toEqual([
      expect.objectContaining({ key: NOTIFY_DISPATCH_JOB_KEY, attempts: 0, max_attempts: 10, payload: {} }),
    ])
  })

  it("the wake-up runs at commit: an open transaction's event does not hold the dispatch job against another's", async () => {
    await confirm(1)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let recorded = () => {}
    const inside = new Promise<void>((resolve) => (recorded = resolve))
    const open = t.db.transaction(async (tx) => {
      const order = await insertOrder(tx, { requestedBy: u.staff.id, status: 'submitted' })
      await markOrdersConfirmed(tx, {
        orders: [{ orderId: order.id, txHash: `0x${'34'.repeat(32)}`, blockNumber: 11n }],
      })
      recorded()
      await held
    })
    try {
      await inside
      // another confirmation commits while the first transaction is still open (no wait on the job's row)
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`)
        const order = await insertOrder(tx, { requestedBy: u.staff.id, status: 'submitted' })
        await markOrdersConfirmed(tx, {
          orders: [{ orderId: order.id, txHash: `0x${'56'.repeat(32)}`, blockNumber: 12n }],
        })
      })
    } finally {
      release()
      await open
    }
    expect((await dispatchJobs()).filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY)).toHaveLength(1)
  })

  it("a worker taking the waiting job between add_job's two statements: the wake-up calls add_job again and adds a new job", async () => {
    await confirm(1)
    // a stand-in for the worker: holds the waiting job's row, then
    // takes the job (get_job) once the event's commit waits on it
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let rowHeld = () => {}
    const holding = new Promise<void>((resolve) => (rowHeld = resolve))
    let taken = 0n
    const worker = t.db.transaction(async (tx) => {
      const [row] = await tx.execute<{ id: string }>(
        sql`select id::text as id from graphile_worker._private_jobs where key = ${NOTIFY_DISPATCH_JOB_KEY} for update`,
      )
      taken = BigInt(row?.id ?? '0')
      rowHeld()
      await held
      await tx.execute(
        sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test-worker', attempts = attempts + 1 where id = ${taken}::bigint`,
      )
    })
    await holding
    const event = confirm(1)
    try {
      // the event's commit: add_job found the job available (no take-over), its insert waits on the row
      await vi.waitFor(
        async () => {
          const [row] = await t.db.execute<{ n: number }>(sql`
            select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
          expect(row?.n).toBeGreaterThanOrEqual(1)
        },
        { timeout: 10_000, interval: 50 },
      )
    } finally {
      release()
      await worker
    }
    await event
    const jobs = await dispatchJobs()
    // the taken job ran before the event committed: a new job under the key must be there for it
    expect(jobs.find((j) => BigInt(j.id) === taken)).toMatchObject({ key: null, attempts: 10 })
    expect(jobs.filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY)).toEqual([expect.objectContaining({ attempts: 0 })])
    await t.db.execute(sql`delete from graphile_worker._private_jobs where id = ${taken}::bigint`)
  })

  it('an event while the dispatch job runs adds a new waiting job; the running one keeps its attempts (no false dead letter)', async () => {
    await confirm(1)
    // graphile-worker's own take-over: the running job loses its key and gets attempts = max ...
    const running = await takeDispatchJob()
    await confirm(1)
    let jobs = await dispatchJobs()
    expect(jobs.find((j) => BigInt(j.id) === running)).toMatchObject({ key: null, attempts: 10 })
    expect(jobs.filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY && j.attempts === 0)).toHaveLength(1)
    // ... which the run puts back when it lets go of its key (its first step)
    await detachRunningJobKey(t.db, { jobId: running, attempt: 1 })
    expect((await dispatchJobs()).find((j) => BigInt(j.id) === running)).toMatchObject({ key: null, attempts: 1 })

    // a run that let go of its key first: an event meanwhile adds a new job and leaves the running one alone
    const second = await takeDispatchJob()
    await detachRunningJobKey(t.db, { jobId: second, attempt: 1 })
    await confirm(2)
    jobs = await dispatchJobs()
    expect(jobs.find((j) => BigInt(j.id) === second)).toMatchObject({ key: null, attempts: 1 })
    expect(jobs.filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY)).toEqual([expect.objectContaining({ attempts: 0 })])
    await t.db.execute(
      sql`delete from graphile_worker._private_jobs where id in (${running}::bigint, ${second}::bigint)`,
    )
  })

  it('no event when the change rolls back', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
    await expect(
      t.db.transaction(async (tx) => {
        await markOrdersConfirmed(tx, {
          orders: [{ orderId: order.id, txHash: `0x${'cd'.repeat(32)}`, blockNumber: 8n }],
        })
        throw new Error('boom before commit')
      }),
    ).rejects.toThrow('boom')
    expect(await eventsOf(order.id)).toHaveLength(0)
    const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id))
    expect(row?.status).toBe('submitted')
    // nor a dispatch job of its own: the rollback took the wake-up with it
    await t.db.execute(sql`delete from graphile_worker._private_jobs where key = ${NOTIFY_DISPATCH_JOB_KEY}`)
    await expect(
      t.db.transaction(async (tx) => {
        await markOrdersConfirmed(tx, {
          orders: [{ orderId: order.id, txHash: `0x${'cd'.repeat(32)}`, blockNumber: 8n }],
        })
        throw new Error('boom again')
      }),
    ).rejects.toThrow('boom')
    expect(await dispatchJobs()).toHaveLength(0)
  })

  it('a failure writes mint.failed once (failing a failed order again writes none); a dead mint job writes mint.dead_letter', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending' })
    const text = 'mint reverted on chain: FrozenAddress(0x90F7) via https://rpc.internal/v2/key'
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId: order.id, reason: text, code: 'reverted' }))
    await t.db.transaction((tx) => markOrderFailed(tx, { orderId: order.id, reason: 'again', code: 'job_failed' }))
    const gaveUp = 'gave up after 5 attempts: nonce 7 of signer 0x90F7 was used by a transaction mintdesk did not sign'
    await t.db.transaction((tx) =>
      failOrderOfDeadJob(tx, {
        task: TASK.mintSend,
        orderId: order.id,
        reason: gaveUp,
        code: 'attempts_exhausted',
        lastError: 'nonce_consumed',
      }),
    )
    const events = await eventsOf(order.id)
    expect(events.map((e) => e.type).sort()).toEqual(['mint.dead_letter', 'mint.failed'])
    // the events carry codes; the text stays on the order, for the admin's job page
    expect(events.find((e) => e.type === 'mint.failed')?.payload).toMatchObject({
      status: 'failed',
      reason: 'reverted',
    })
    const dead = events.find((e) => e.type === 'mint.dead_letter')
    expect(dead?.payload).toMatchObject({
      status: 'failed',
      task: TASK.mintSend,
      reason: 'attempts_exhausted',
      lastError: 'nonce_consumed',
    })
    for (const e of events) {
      expect(JSON.stringify(e.payload)).not.toContain('FrozenAddress')
      expect(JSON.stringify(e.payload)).not.toContain('gave up')
    }
    const [row] = await t.db
      .select({ failureReason: mintOrders.failureReason })
      .from(mintOrders)
      .where(eq(mintOrders.id, order.id))
    expect(row?.failureReason).toBe(gaveUp)
    // not a mint task: nothing
    expect(
      await t.db.transaction((tx) =>
        failOrderOfDeadJob(tx, { task: TASK.webhookDeliver, orderId: order.id, reason: 'x', code: 'job_failed' }),
      ),
    ).toBe(false)
    expect(await eventsOf(order.id)).toHaveLength(2)
  })

  it('the intake hook writes mint.awaiting_approval for an order awaiting approval, and nothing for another', async () => {
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    const pending = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'pending' })
    await t.db.execute(sql`select public.on_mint_awaiting_approval(${waiting.id}::uuid)`)
    await t.db.execute(sql`select public.on_mint_awaiting_approval(${pending.id}::uuid)`)
    expect((await eventsOf(waiting.id)).map((e) => e.type)).toEqual(['mint.awaiting_approval'])
    expect(await eventsOf(pending.id)).toHaveLength(0)
    expect(
      await recordMintEvent(t.db, {
        type: 'mint.confirmed',
        orderId: pending.id,
        status: 'confirmed',
        from: ['submitted'],
      }),
    ).toBeNull()
  })
})
