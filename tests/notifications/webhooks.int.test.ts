import { asc, eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintOrders, webhookDeliveryAttempts } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { DEV_WEBHOOK_SECRETS_KEY } from '@/lib/notifications/notificationSettings'
import { rotateWebhookSecret } from '@/lib/web/notifications/rotateWebhookSecret'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { verifyStandardWebhook } from '@/tests/helpers/verifyStandardWebhook'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { confirmTestOrder, deliveryOf, subscribeTestEndpoint } from './notificationFixtures'
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver'

// Webhooks end to end: a real worker process, a real receiver over HTTP, the
// real database. Events are written by markOrdersConfirmed, as the confirm path does.
describe('webhook deliveries through a real worker', () => {
  let t: TestDatabase
  let u: TestUsers
  let chain: ChainFixture
  const workers: WorkerProcess[] = []
  const receivers: WebhookReceiver[] = []
  const env = (extra: Record<string, string> = {}) =>
    workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '4', NOTIFY_CLAIM_LEASE_MS: '2000', ...extra } })
  const start = async (name: string, extra?: Record<string, string>) => {
    const w = startWorkerProcess({ name, env: env(extra) })
    workers.push(w)
    await w.waitForLine((l) => l.msg === 'worker started')
    return w
  }
  const receiver = async (...args: Parameters<typeof startWebhookReceiver>) => {
    const r = await startWebhookReceiver(...args)
    receivers.push(r)
    return r
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await Promise.all(receivers.map((r) => r.close()))
    await chain?.stop()
    await t?.drop()
  })

  it('a receiver failing twice then answering 200 gets the event 3 times, signed, then it is delivered and never sent again', async () => {
    const hook = await receiver((n) => ({ status: n <= 2 ? 503 : 200 }))
    const endpoint = await subscribeTestEndpoint(t.db, { url: hook.url, adminId: u.admin.id })
    const worker = await start('webhook-retries')
    try {
      const { orderId, eventId } = await confirmTestOrder(t.db, { requestedBy: u.staff.id })
      await waitFor(async () => (await deliveryOf(t.db, eventId, endpoint.id))?.status === 'delivered', {
        timeoutMs: 45_000,
        what: `delivered (log ${worker.logFile})`,
      })
      expect(hook.received).toHaveLength(3)
      // the same event, the same bytes, each signed with the endpoint's secret
      for (const request of hook.received) {
        expect(request.eventId).toBe(`evt_${eventId}`)
        const { rawBody, headers } = request
        expect(verifyStandardWebhook({ secret: endpoint.secret, rawBody, headers })).toBe(true)
        expect(
          verifyStandardWebhook({ secret: 'whsec_QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=', rawBody, headers }),
        ).toBe(false)
        expect(
          verifyStandardWebhook({ secret: endpoint.secret, rawBody: rawBody.replace('confirmed', 'failed'), headers }),
        ).toBe(false)
      }
      const body = JSON.parse(hook.received[2]?.rawBody ?? '{}') as {
        type: string
        timestamp: string
        data: Record<string, unknown>
      }
      const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
      expect(body).toEqual({
        type: 'mint.confirmed',
        timestamp: expect.any(String),
        data: { orderId, status: 'confirmed', to: order?.toAddress, amount: '401.084', txHash: order?.txHash },
      })
      expect(new Date(body.timestamp).toString()).not.toBe('Invalid Date')

      const delivery = await deliveryOf(t.db, eventId, endpoint.id)
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, claimToken: null })
      const attempts = await t.db
        .select()
        .from(webhookDeliveryAttempts)
        .where(eq(webhookDeliveryAttempts.deliveryId, delivery?.id ?? ''))
        .orderBy(asc(webhookDeliveryAttempts.id))
      expect(attempts.map((a) => [a.attempt, a.statusCode, a.ok])).toEqual([
        [1, 503, false],
        [2, 503, false],
        [3, 200, true],
      ])
      expect(attempts.every((a) => a.durationMs >= 0 && a.responseExcerpt !== null)).toBe(true)
      expect(attempts[2]?.responseExcerpt).toBe('thanks')

      // never sent again: the job is gone, and a stray run finds the delivery finished
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      expect(hook.received).toHaveLength(3)
      const left = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = ${TASK.webhookDeliver})`,
      )
      expect(left[0]?.n).toBe(0)
    } finally {
      await worker.stop('SIGTERM')
    }
  }, 90_000)

  it('a mint through the worker reports each step: mint.submitted with its transaction hash, then mint.confirmed', async () => {
    const hook = await receiver(() => ({ status: 200 }))
    const endpoint = await subscribeTestEndpoint(t.db, {
      url: hook.url,
      adminId: u.admin.id,
      events: ['mint.submitted', 'mint.confirmed'],
    })
    const worker = await start('webhook-steps')
    try {
      const [order] = await createTestOrders(t.db, { count: 1, to: [privateKeyToAddress(generatePrivateKey())] })
      const orderId = order?.id ?? ''
      await waitFor(async () => hook.received.length >= 2, {
        timeoutMs: 45_000,
        what: `two deliveries (${worker.logFile})`,
      })
      const bodies = hook.received.map(
        (r) => JSON.parse(r.rawBody) as { type: string; data: { orderId: string; status: string; txHash: string } },
      )
      const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
      expect(bodies.map((b) => [b.type, b.data.status])).toEqual([
        ['mint.submitted', 'submitted'],
        ['mint.confirmed', 'confirmed'],
      ])
      // a single transaction: the hash announced at submission is the one confirmed
      expect(bodies.every((b) => b.data.orderId === orderId && b.data.txHash === row?.txHash)).toBe(true)
      for (const r of hook.received)
        expect(verifyStandardWebhook({ secret: endpoint.secret, rawBody: r.rawBody, headers: r.headers })).toBe(true)
    } finally {
      await worker.stop('SIGTERM')
    }
  }, 90_000)

  it('after a secret rotation a delivery carries both signatures: the old and the new secret each verify it', async () => {
    const hook = await receiver(() => ({ status: 200 }))
    const endpoint = await subscribeTestEndpoint(t.db, { url: hook.url, adminId: u.admin.id })
    const rotated = await rotateWebhookSecret(t.db, {
      id: endpoint.id,
      actor: { id: u.admin.id, email: 'admin@mintdesk.test' },
      secretsKey: Buffer.from(DEV_WEBHOOK_SECRETS_KEY, 'hex'),
    })
    const worker = await start('webhook-rotation')
    try {
      const { eventId } = await confirmTestOrder(t.db, { requestedBy: u.staff.id })
      await waitFor(async () => (await deliveryOf(t.db, eventId, endpoint.id))?.status === 'delivered', {
        timeoutMs: 45_000,
        what: `delivered (log ${worker.logFile})`,
      })
      const [request] = hook.received
      expect(request?.signature.split(' ')).toHaveLength(2)
      const { rawBody, headers } = request ?? { rawBody: '', headers: {} }
      expect(verifyStandardWebhook({ secret: endpoint.secret, rawBody, headers }), 'the secret before').toBe(true)
      expect(verifyStandardWebhook({ secret: rotated.secret, rawBody, headers }), 'the new secret').toBe(true)
    } finally {
      await worker.stop('SIGTERM')
    }
  }, 90_000)

  it('SIGKILL of the worker during a delivery: the event still arrives (a late duplicate at worst)', async () => {
    let answered = false
    const hook = await receiver((n) => (n === 1 ? 'hold' : { status: 200 }))
    const endpoint = await subscribeTestEndpoint(t.db, { url: hook.url, adminId: u.admin.id })
    const victim = await start('webhook-victim')
    const arrival = hook.nextRequest()
    const { eventId } = await confirmTestOrder(t.db, { requestedBy: u.staff.id })
    await arrival
    victim.child.kill('SIGKILL')
    expect((await victim.exited).signal).toBe('SIGKILL')
    const claimed = await deliveryOf(t.db, eventId, endpoint.id)
    expect(claimed?.status, 'killed mid-request: the claim is left, unfinished').toBe('pending')
    expect(claimed?.claimToken).not.toBeNull()

    const rescuer = await start('webhook-rescuer')
    try {
      await waitFor(async () => (await deliveryOf(t.db, eventId, endpoint.id))?.status === 'delivered', {
        timeoutMs: 60_000,
        what: `delivered after the kill (log ${rescuer.logFile})`,
      })
      answered = (hook.acknowledged.get(`evt_${eventId}`) ?? 0) === 1
      expect(answered).toBe(true)
      expect(hook.received.filter((r) => r.eventId === `evt_${eventId}`)).toHaveLength(2)
    } finally {
      await rescuer.stop('SIGTERM')
    }
  }, 90_000)

  it('a dead endpoint (never answers) does not delay mints: one lane of deliveries hangs, the orders confirm', async () => {
    const dead = await receiver(() => 'hold')
    const alive = await receiver(() => ({ status: 200 }))
    await subscribeTestEndpoint(t.db, { url: dead.url, adminId: u.admin.id })
    // six events for the dead endpoint, each hanging 10 s per attempt
    for (let i = 0; i < 6; i++) await confirmTestOrder(t.db, { requestedBy: u.staff.id })
    const worker = await start('dead-endpoint', { NOTIFY_CONCURRENCY: '1' })
    try {
      await waitFor(async () => dead.received.length >= 1, {
        timeoutMs: 20_000,
        what: 'the dead endpoint is being called',
      })
      await subscribeTestEndpoint(t.db, { url: alive.url, adminId: u.admin.id })
      const to = [privateKeyToAddress(generatePrivateKey())]
      const started = Date.now()
      const orders = await createTestOrders(t.db, { count: 4, to })
      let busiest = 0
      await waitFor(
        async () => {
          const running = await t.db.execute<{ n: number }>(
            sql`select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = ${TASK.webhookDeliver} and j.locked_at is not null`,
          )
          busiest = Math.max(busiest, running[0]?.n ?? 0)
          const rows = await t.db
            .select({ status: mintOrders.status })
            .from(mintOrders)
            .where(sql`${mintOrders.id} in ${orders.map((o) => o.id)}`)
          return rows.length === orders.length && rows.every((r) => r.status === 'confirmed')
        },
        {
          timeoutMs: 30_000,
          intervalMs: 100,
          what: `4 orders confirmed while the dead endpoint hangs (log ${worker.logFile})`,
        },
      )
      const tookMs = Date.now() - started
      expect(busiest, 'at most NOTIFY_CONCURRENCY deliveries run at once').toBeLessThanOrEqual(1)
      expect(dead.received.length, 'the dead endpoint held its lane the whole time').toBeLessThanOrEqual(3)
      console.log(
        `[notifications] 4 mints confirmed in ${tookMs} ms while a dead endpoint hung (${dead.received.length} requests held)`,
      )
      expect(tookMs).toBeLessThan(20_000)
    } finally {
      await worker.stop('SIGTERM')
    }
  }, 120_000)
})
