import { and, eq, sql } from 'drizzle-orm'
import { notificationEvents, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { NotificationClaimedError, WebhookDeliveryFailedError, WebhookSecretError } from '@/lib/errors/notifications'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { ResolveHost } from '@/lib/notifications/resolveSafeAddresses'
import { buildWebhookBody, publicEventId } from './buildWebhookBody'
import { claimNotification } from './claimNotification'
import type { NotifyRun } from './NotifyContext'
import { openSecret } from './openSecret'
import { postWebhook } from './postWebhook'
import { signWebhook } from './signWebhook'

export type DeliverWebhookParameters = {
  deliveryId: string
  /** the job's attempt and its maximum: the last failed attempt makes the delivery dead */
  attempt: number
  maxAttempts: number
  /** TEST ONLY: the resolver of the SSRF guard */
  resolve?: ResolveHost
}

export type DeliverWebhookReturnType =
  | { outcome: 'delivered'; statusCode: number; durationMs: number }
  /** delivered, dead or cancelled before: nothing sent (a 2xx is never followed by another send) */
  | { outcome: 'finished'; status: string }
  | { outcome: 'cancelled' }

/**
 * One attempt of one webhook delivery (event, endpoint):
 * 1. claim it (claimNotification): a delivery already delivered is never sent again; one
 *    another attempt holds is retried after its lease (NotificationClaimedError);
 * 2. POST the event's JSON as Standard Webhooks do (`webhook-id`, `webhook-timestamp`,
 *    `webhook-signature`: signWebhook, with the endpoint's secret, and during a rotation the
 *    one before it too), through the SSRF guard, within the timeout (10 s);
 * 3. in ONE transaction: the attempt row (status, latency, the answer's first KiB) and the
 *    delivery completed: `delivered` on a 2xx, else `pending` again (or `dead` on the last
 *    attempt), its claim released. A non-2xx throws WebhookDeliveryFailedError so the
 *    job is retried with backoff.
 */
export async function deliverWebhook(run: NotifyRun, p: DeliverWebhookParameters): Promise<DeliverWebhookReturnType> {
  const claim = await claimNotification(run.db, {
    table: 'webhook_deliveries',
    id: p.deliveryId,
    leaseMs: run.settings.claimLeaseMs,
  })
  if (claim.outcome === 'missing') throw new PermanentJobError(`webhook delivery ${p.deliveryId} does not exist`)
  if (claim.outcome === 'finished') return { outcome: 'finished', status: claim.status }
  if (claim.outcome === 'held') throw new NotificationClaimedError(`webhook delivery ${p.deliveryId}`, claim.until)

  const [row] = await run.db
    .select({ event: notificationEvents, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, p.deliveryId))
  if (!row) throw new PermanentJobError(`webhook delivery ${p.deliveryId} lost its event or endpoint`)
  const release = { status: 'pending', claimToken: null, claimedUntil: null, updatedAt: sql`now()` } as const
  const mine = and(eq(webhookDeliveries.id, p.deliveryId), eq(webhookDeliveries.claimToken, claim.token))
  if (row.endpoint.deletedAt) {
    await run.db
      .update(webhookDeliveries)
      .set({ ...release, status: 'cancelled', lastError: 'the endpoint was deleted' })
      .where(mine)
    return { outcome: 'cancelled' }
  }
  if (!run.settings.secretsKey)
    throw new WebhookSecretError('WEBHOOK_SECRETS_KEY is not set: no delivery can be signed')
  const key = run.settings.secretsKey
  const sealed = [row.endpoint.secretCiphertext]
  // during a rotation the secret before it signs too, until its overlap ends
  const previous = row.endpoint.previousSecretCiphertext
  const previousUntil = row.endpoint.previousSecretExpiresAt
  if (previous && previousUntil && previousUntil.getTime() > Date.now()) sealed.push(previous)
  const secrets = sealed.map((s) => openSecret({ key, sealed: s, endpointId: row.endpoint.id }))

  const rawBody = buildWebhookBody(row.event)
  const id = publicEventId(row.event.id)
  const timestamp = Math.floor(Date.now() / 1000)
  const startedAt = new Date()
  const answer = await postWebhook({
    url: row.endpoint.url,
    rawBody,
    timeoutMs: run.settings.webhookTimeoutMs,
    production: run.production,
    resolve: p.resolve,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'mintdesk-webhooks/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook({ secrets, id, timestamp, rawBody }),
      'mintdesk-delivery-id': p.deliveryId,
    },
  })
  const ok = answer.error === null && answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300
  const dead = !ok && p.attempt >= p.maxAttempts
  const error = ok ? null : redactSecrets(answer.error ?? `answered HTTP ${answer.statusCode}`).slice(0, 500)

  await run.db.transaction(async (tx) => {
    await tx.insert(webhookDeliveryAttempts).values({
      deliveryId: p.deliveryId,
      attempt: claim.attempts,
      startedAt,
      durationMs: answer.durationMs,
      statusCode: answer.statusCode,
      ok,
      error,
      responseExcerpt: answer.excerpt === null ? null : answer.excerpt.slice(0, 1024),
      workerId: run.workerId,
    })
    await tx
      .update(webhookDeliveries)
      .set({
        ...release,
        status: ok ? 'delivered' : dead ? 'dead' : 'pending',
        lastStatusCode: answer.statusCode,
        lastError: error,
        ...(ok ? { deliveredAt: sql`now()` } : {}),
      })
      .where(mine)
  })
  if (!ok)
    throw new WebhookDeliveryFailedError(
      `webhook delivery ${p.deliveryId} to ${new URL(row.endpoint.url).host}: ${error}`,
    )
  return { outcome: 'delivered', statusCode: answer.statusCode ?? 0, durationMs: answer.durationMs }
}
