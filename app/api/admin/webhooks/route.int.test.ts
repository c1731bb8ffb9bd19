import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { auditLog, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { DEV_WEBHOOK_SECRETS_KEY } from '@/lib/notifications/notificationSettings'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { createWebhookEndpoint } from '@/lib/web/notifications/createWebhookEndpoint'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { insertOrder } from '@/tests/helpers/orders'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import type { TestUsers } from '@/tests/helpers/users'

// The webhook subscriptions' API (docs/api.md "Webhooks and email") through the real route
// handlers and wrapper, as the web's database role; only the session is faked. Refusals
// write nothing: no endpoint row, no audit row.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  webhooks: typeof import('./route')
  webhook: typeof import('./[id]/route')
  deliveries: typeof import('./[id]/deliveries/route')
  redeliver: typeof import('./deliveries/[deliveryId]/redeliver/route')
  rotate: typeof import('./[id]/rotate-secret/route')
}

let t: TestDatabase
let u: TestUsers
let r: Routes
let route: RouteTest

beforeAll(async () => {
  route = await startRouteTest()
  t = route.t
  u = route.u
  r = {
    webhooks: await import('./route'),
    webhook: await import('./[id]/route'),
    deliveries: await import('./[id]/deliveries/route'),
    redeliver: await import('./deliveries/[deliveryId]/redeliver/route'),
    rotate: await import('./[id]/rotate-secret/route'),
  }
})

afterAll(async () => {
  await route?.close()
})

const subscribe = (body: unknown) => r.webhooks.POST(routeRequest('/api/admin/webhooks', { method: 'POST', body }))
const written = async () => ({
  endpoints: (await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints))[0]?.n,
  audits: (
    await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(sql`${auditLog.action} like 'webhook.%'`)
  )[0]?.n,
})

describe('POST/GET/DELETE /api/admin/webhooks', () => {
  it('subscribes (201, the secret shown once and stored sealed), lists without the secret, deletes', async () => {
    signInAs(u.admin)
    const res = await subscribe({ url: 'http://127.0.0.1:9/hook', events: ['mint.confirmed', 'mint.failed'] })
    expect(res.status).toBe(201)
    const created = (await res.json()) as { id: string; secret: string; events: string[] }
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id))
    expect(row?.secretCiphertext.startsWith('v1.')).toBe(true)
    expect(row?.secretCiphertext).not.toContain(created.secret.slice(6))

    const list = await r.webhooks.GET(routeRequest('/api/admin/webhooks'))
    const text = await list.text()
    expect(text).toContain(created.id)
    expect(text).not.toContain(created.secret)
    expect(text).not.toContain('v1.')

    const del = await r.webhook.DELETE(
      routeRequest(`/api/admin/webhooks/${created.id}`, { method: 'DELETE' }),
      routeParams({ id: created.id }),
    )
    expect(del.status).toBe(200)
    const again = await r.webhook.DELETE(
      routeRequest(`/api/admin/webhooks/${created.id}`, { method: 'DELETE' }),
      routeParams({ id: created.id }),
    )
    expect(again.status).toBe(404)
    const actions = (
      await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, created.id))
    ).map((a) => a.action)
    expect(actions.sort()).toEqual(['webhook.delete', 'webhook.subscribe'])
  })

  it('an unknown event, no event, or not a URL: 422 validation_failed naming the field, nothing written', async () => {
    signInAs(u.admin)
    const before = await written()
    for (const [body, path] of [
      [{ url: 'http://127.0.0.1:9/hook', events: ['mint.exploded'] }, 'events.0'],
      [{ url: 'http://127.0.0.1:9/hook', events: [] }, 'events'],
      [{ url: 'ftp://127.0.0.1/hook', events: ['mint.confirmed'] }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/hook', events: ['mint.confirmed'] }, 'url'],
    ] as const) {
      const res = await subscribe(body)
      expect(res.status).toBe(422)
      const error = await errorOf(res)
      expect(error.code).toBe('validation_failed')
      expect(error.issues?.map((i) => i.path)).toContain(path)
    }
    expect(await written()).toEqual(before)
  })

  it('in production: http, a private address, IPv4 inside IPv6, and a hostname resolving to 127.0.0.1 are refused, nothing written', async () => {
    const before = await written()
    const key = Buffer.from(DEV_WEBHOOK_SECRETS_KEY, 'hex')
    const actor = { id: u.admin.id, email: u.admin.email }
    const cases = [
      ['http://example.com/hook', /https/],
      ['https://10.0.0.5/hook', /10\.0\.0\.5/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback, private or reserved/],
      // IPv4 inside IPv6: mapped and translated refused whole, local-use NAT64 whole, well-known
      // NAT64 by the IPv4 inside
      ['https://[::ffff:8.8.8.8]/hook', /loopback, private or reserved/],
      ['https://[::ffff:0:808:808]/hook', /loopback, private or reserved/],
      ['https://[64:ff9b:1::808:808]/hook', /loopback, private or reserved/],
      ['https://nat64.test/hook', /resolves to 64:ff9b::a00:5/],
      ['https://localhost/hook', /resolves to (127\.0\.0\.1|::1)/],
      ['https://rebind.test/hook', /resolves to 192\.168\.1\.10/],
    ] as const
    for (const [url, why] of cases) {
      const refused = createWebhookEndpoint(t.db, {
        url,
        events: ['mint.confirmed'],
        actor,
        secretsKey: key,
        production: true,
        // a name with one public and one private answer is refused whole
        resolve: async (host) =>
          host === 'rebind.test'
            ? [
                { address: '93.184.215.14', family: 4 },
                { address: '192.168.1.10', family: 4 },
              ]
            : host === 'nat64.test'
              ? // a DNS64 answer translating 10.0.0.5
                [{ address: '64:ff9b::a00:5', family: 6 }]
              : (await import('@/lib/notifications/resolveSafeAddresses')).resolveHost(host),
      })
      await expect(refused).rejects.toMatchObject({
        code: 'validation_failed',
        issues: [{ path: 'url', message: expect.stringMatching(why) }],
      })
    }
    // production without WEBHOOK_SECRETS_KEY: 503, nothing written
    await expect(
      createWebhookEndpoint(t.db, {
        url: 'https://example.com/hook',
        events: ['mint.confirmed'],
        actor,
        secretsKey: undefined,
        production: true,
      }),
    ).rejects.toMatchObject({ code: 'webhooks_not_configured' })
    expect(await written()).toEqual(before)
  })

  it('staff may not subscribe or list (403), nothing written', async () => {
    signInAs(u.staff)
    const before = await written()
    expect((await subscribe({ url: 'http://127.0.0.1:9/hook', events: ['mint.confirmed'] })).status).toBe(403)
    expect((await r.webhooks.GET(routeRequest('/api/admin/webhooks'))).status).toBe(403)
    expect(await written()).toEqual(before)
  })
})

describe('POST /api/admin/webhooks/{id}/rotate-secret', () => {
  const rotate = (id: string) =>
    r.rotate.POST(routeRequest(`/api/admin/webhooks/${id}/rotate-secret`, { method: 'POST' }), routeParams({ id }))

  it('gives a new secret, shown once; the one before keeps signing for 24 h; audited', async () => {
    signInAs(u.admin)
    const created = (await (await subscribe({ url: 'http://127.0.0.1:9/rot', events: ['mint.confirmed'] })).json()) as {
      id: string
      secret: string
    }
    const [before] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id))
    const res = await rotate(created.id)
    expect(res.status).toBe(200)
    const rotated = (await res.json()) as { id: string; secret: string; previousSecretExpiresAt: string }
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(rotated.secret).not.toBe(created.secret)
    const hours = (Date.parse(rotated.previousSecretExpiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)
    const [after] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id))
    expect(after?.previousSecretCiphertext).toBe(before?.secretCiphertext)
    expect(after?.secretCiphertext).not.toBe(before?.secretCiphertext)
    const actions = (
      await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, created.id))
    ).map((a) => a.action)
    expect(actions).toContain('webhook.rotate_secret')
  })

  it('an unknown endpoint: 404; staff: 403; nothing changes', async () => {
    signInAs(u.admin)
    expect((await rotate('00000000-0000-4000-8000-000000000000')).status).toBe(404)
    const created = (await (
      await subscribe({ url: 'http://127.0.0.1:9/rot2', events: ['mint.confirmed'] })
    ).json()) as {
      id: string
    }
    signInAs(u.staff)
    expect(await errorOf(await rotate(created.id))).toMatchObject({ status: 403, code: 'forbidden' })
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id))
    expect(row?.previousSecretCiphertext).toBeNull()
  })
})

describe('deliveries and redeliver', () => {
  it("lists an endpoint's deliveries with their attempts; redeliver makes a delivered one pending with a new job, audited", async () => {
    signInAs(u.admin)
    const res = await subscribe({ url: 'http://127.0.0.1:9/hook', events: ['mint.confirmed'] })
    const { id } = (await res.json()) as { id: string }
    const order = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'submitted' })
    const eventId = await recordMintEvent(t.db, {
      type: 'mint.confirmed',
      orderId: order.id,
      status: 'confirmed',
      from: ['submitted'],
    })
    if (!eventId) throw new Error('no event')
    const [delivery] = await t.db
      .insert(webhookDeliveries)
      .values({ eventId, endpointId: id, status: 'delivered', attempts: 1, deliveredAt: new Date() })
      .returning()
    if (!delivery) throw new Error('no delivery')
    await t.db.insert(webhookDeliveryAttempts).values({
      deliveryId: delivery.id,
      attempt: 1,
      startedAt: new Date(),
      durationMs: 12,
      statusCode: 200,
      ok: true,
      responseExcerpt: 'ok',
    })

    const listed = await r.deliveries.GET(routeRequest(`/api/admin/webhooks/${id}/deliveries`), routeParams({ id }))
    expect(listed.status).toBe(200)
    const body = (await listed.json()) as {
      items: { id: string; eventId: string; status: string; attemptLog: { statusCode: number; durationMs: number }[] }[]
    }
    expect(body.items).toHaveLength(1)
    expect(body.items[0]).toMatchObject({
      id: delivery.id,
      eventId: `evt_${eventId}`,
      status: 'delivered',
      attemptLog: [{ statusCode: 200, durationMs: 12 }],
    })

    const again = await r.redeliver.POST(
      routeRequest(`/api/admin/webhooks/deliveries/${delivery.id}/redeliver`, { method: 'POST' }),
      routeParams({ deliveryId: delivery.id }),
    )
    expect(again.status).toBe(202)
    const [after] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id))
    expect(after?.status).toBe('pending')
    const jobs = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker._private_jobs where key = ${`${TASK.webhookDeliver}:${delivery.id}`}`,
    )
    expect(jobs[0]?.n).toBe(1)
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, delivery.id))
    expect(audit?.action).toBe('webhook.redeliver')

    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(
      (await r.deliveries.GET(routeRequest(`/api/admin/webhooks/${unknown}/deliveries`), routeParams({ id: unknown })))
        .status,
    ).toBe(404)
    expect(
      (
        await r.redeliver.POST(
          routeRequest(`/api/admin/webhooks/deliveries/${unknown}/redeliver`, { method: 'POST' }),
          routeParams({ deliveryId: unknown }),
        )
      ).status,
    ).toBe(404)
  })
})
