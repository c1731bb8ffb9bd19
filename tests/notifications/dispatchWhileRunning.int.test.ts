import { eq, inArray, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificationEvents, webhookDeliveries } from '@/db/schema'
import { NOTIFY_DISPATCH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { confirmTestOrder, subscribeTestEndpoint } from './notificationFixtures'
import { startWebhookReceiver } from './webhookReceiver'

// The one dispatch job (docs/decisions/033-notifications.md) with a real worker: events that
// commit WHILE the one notify_dispatch job runs are not left behind. The test holds the
// endpoint's row FOR UPDATE, so the running dispatch blocks on its first delivery insert
// (the foreign key's share lock) after it has taken its batch; the events committed
// meanwhile must be dispatched by a job that starts after them.
describe('notify_dispatch: events arriving while the dispatch runs', () => {
  let t: TestDatabase
  let u: TestUsers
  let chain: ChainFixture

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
  })
  afterAll(async () => {
    await chain?.stop()
    await t?.drop()
  })

  const dispatchJobs = () =>
    t.db.execute<{ id: string; key: string | null; attempts: number; locked: boolean }>(sql`
      select j.id::text as id, j.key, j.attempts::int as attempts, j.locked_at is not null as locked
      from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
      where k.identifier = ${TASK.notifyDispatch} order by j.id`)

  it('every event is dispatched and delivered once, no dispatch job dies, none is left', async () => {
    const hook = await startWebhookReceiver(() => ({ status: 200 }))
    const endpoint = await subscribeTestEndpoint(t.db, { url: hook.url, adminId: u.admin.id })
    const worker = startWorkerProcess({
      name: 'dispatch-while-running',
      env: workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '4' } }),
    })
    let release = () => {}
    try {
      await worker.waitForLine((l) => l.msg === 'worker started')
      const held = new Promise<void>((resolve) => (release = resolve))
      let locked = () => {}
      const lockTaken = new Promise<void>((resolve) => (locked = resolve))
      const holder = t.db.transaction(async (tx) => {
        await tx.execute(sql`select id from webhook_endpoints where id = ${endpoint.id} for update`)
        locked()
        await held
      })
      await lockTaken

      const first = await confirmTestOrder(t.db, { requestedBy: u.staff.id })
      // the dispatch has taken the first event and waits on the endpoint's row
      await waitFor(
        async () => {
          const [row] = await t.db.execute<{ n: number }>(sql`
            select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%insert into "webhook_deliveries"%'`)
          return (row?.n ?? 0) >= 1
        },
        { timeoutMs: 20_000, what: `the dispatch blocked on its first delivery (log ${worker.logFile})` },
      )
      const running = (await dispatchJobs()).filter((j) => j.locked)
      expect(running, 'the running dispatch let go of its key and kept its attempts').toEqual([
        expect.objectContaining({ key: null, attempts: 1 }),
      ])

      // four more events commit while it runs
      const later = []
      for (let i = 0; i < 4; i++) later.push(await confirmTestOrder(t.db, { requestedBy: u.staff.id }))
      const keyed = (await dispatchJobs()).filter((j) => j.key === NOTIFY_DISPATCH_JOB_KEY)
      expect(keyed.length, 'a job under the key for the events that came meanwhile').toBeLessThanOrEqual(1)
      const undispatched = await t.db.select().from(notificationEvents).where(isNull(notificationEvents.dispatchedAt))
      expect(undispatched.length).toBeGreaterThanOrEqual(4)

      release()
      await holder
      const eventIds = [first, ...later].map((e) => e.eventId)
      await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, eventIds))
          return rows.length === eventIds.length && rows.every((r) => r.status === 'delivered')
        },
        { timeoutMs: 45_000, what: `all five delivered (log ${worker.logFile})` },
      )
      expect(await t.db.select().from(notificationEvents).where(isNull(notificationEvents.dispatchedAt))).toHaveLength(
        0,
      )
      for (const id of eventIds) expect(hook.acknowledged.get(`evt_${id}`), id).toBe(1)
      await waitFor(async () => (await dispatchJobs()).length === 0, {
        timeoutMs: 10_000,
        what: 'no notify_dispatch job left',
      })
      const [bad] = await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from job_events where task = ${TASK.notifyDispatch} and event in ('failed', 'dead')`)
      expect(bad?.n).toBe(0)
      const [ended] = await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from job_events where task = ${TASK.notifyDispatch} and event = 'succeeded'`)
      expect(ended?.n).toBeGreaterThanOrEqual(2)
      const endpointDeliveries = await t.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id))
      expect(endpointDeliveries).toHaveLength(5)
    } finally {
      release()
      await worker.stop('SIGTERM')
      await hook.close()
    }
  }, 120_000)
})
