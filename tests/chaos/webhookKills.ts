import { eq } from 'drizzle-orm'
import { webhookDeliveries } from '@/db/schema'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { confirmTestOrder, subscribeTestEndpoint } from '@/tests/notifications/notificationFixtures'
import { startWebhookReceiver } from '@/tests/notifications/webhookReceiver'

export type WebhookKillsParameters = {
  kills: number
  /** how long the receiver holds each request before its 200: the window the kill lands in */
  holdMs?: number
  log?: (line: string) => void
}

export type WebhookKillsReturnType = {
  kills: number
  events: number
  /** events never acknowledged with a 2xx: must be 0 */
  lost: number
  /** requests beyond the first, summed over the events (what a receiver dedupes by event id) */
  duplicates: number
  /** deliveries not `delivered` at the end: must be 0 */
  undelivered: number
  durationMs: number
}

/**
 * The duplicate count of "once per recipient" (docs/reliability.md): for each
 * kill, a worker is started, one event is written (a confirmed order), and the worker is
 * SIGKILLed while the receiver holds that event's POST (a random moment of the hold, so
 * the receiver has the request and the worker never learns the answer: the worst case of
 * the claim). The next worker takes the job over after the stale-worker sweep and sends it
 * again once the claim's lease is over. At the end one worker finishes everything; every
 * event must have been acknowledged, and each extra request is a duplicate.
 */
export async function runWebhookKills({
  kills,
  holdMs = 400,
  log = () => {},
}: WebhookKillsParameters): Promise<WebhookKillsReturnType> {
  const started = Date.now()
  let t: TestDatabase | undefined
  let chain: ChainFixture | undefined
  const receiver = await startWebhookReceiver(() => ({ status: 200, delayMs: holdMs }))
  let worker: WorkerProcess | undefined
  try {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    const db = t.db
    const u = await insertTestUsers(db)
    const endpoint = await subscribeTestEndpoint(db, { url: receiver.url, adminId: u.admin.id })
    const env = workerEnv({
      databaseUrl: t.url,
      chain,
      env: {
        WORKER_CONCURRENCY: '2',
        WORKER_STALE_AFTER_MS: '1500',
        WORKER_HEARTBEAT_MS: '300',
        NOTIFY_CLAIM_LEASE_MS: '1500',
        LOG_LEVEL: 'warn',
      },
    })
    const start = async (name: string) => {
      const w = startWorkerProcess({ name, env: { ...env, LOG_LEVEL: 'info' } })
      await w.waitForLine((l) => l.msg === 'worker started', 60_000)
      return w
    }
    const eventIds: string[] = []
    for (let i = 1; i <= kills; i++) {
      worker = await start(`webhook-kill-${i}`)
      const arrival = receiver.nextRequest()
      const { eventId } = await confirmTestOrder(db, { requestedBy: u.staff.id })
      eventIds.push(eventId)
      // the arrival of THIS event's request (an older event's retry may come first)
      let request = await arrival
      while (request.eventId !== `evt_${eventId}`) request = await receiver.nextRequest()
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * (holdMs * 0.8))))
      worker.child.kill('SIGKILL')
      await worker.exited
      log(`kill ${i}/${kills}: during the POST of evt_${eventId}`)
    }
    worker = await start('webhook-kill-finisher')
    await waitFor(
      async () => {
        const rows = await db
          .select({ status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint.id))
        return rows.length === eventIds.length && rows.every((r) => r.status === 'delivered')
      },
      { timeoutMs: 120_000 + kills * 1_000, what: `every delivery delivered (log ${worker.logFile})` },
    )
    const rows = await db
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    const counts = new Map<string, number>()
    for (const r of receiver.received) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1)
    return {
      kills,
      events: eventIds.length,
      lost: eventIds.filter((id) => (receiver.acknowledged.get(`evt_${id}`) ?? 0) === 0).length,
      duplicates: eventIds.reduce((sum, id) => sum + Math.max(0, (counts.get(`evt_${id}`) ?? 0) - 1), 0),
      undelivered: rows.filter((r) => r.status !== 'delivered').length,
      durationMs: Date.now() - started,
    }
  } finally {
    await worker?.stop('SIGTERM')
    await receiver.close()
    await chain?.stop()
    await t?.drop()
  }
}
