import { ApiError } from '@/lib/web/errors/api'
import type { ApiCreatedWebhook, ApiWebhookDelivery, ApiWebhookEndpoint } from '@/lib/web/notifications/apiTypes'

// The Webhooks page's one boundary with the API (docs/api.md "Webhooks and email"):
// each call throws ApiError (its code, message and issues) on a refusal.

async function call<T>(path: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    cache: 'no-store',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

/** GET /api/admin/webhooks */
export async function fetchWebhookEndpoints(): Promise<ApiWebhookEndpoint[]> {
  return (await call<{ items: ApiWebhookEndpoint[] }>('/api/admin/webhooks')).items
}

/** POST /api/admin/webhooks: the answer carries the secret, the only time it is shown */
export function subscribeWebhook(p: { url: string; events: string[] }): Promise<ApiCreatedWebhook> {
  return call('/api/admin/webhooks', 'POST', p)
}

/** DELETE /api/admin/webhooks/{id} */
export function deleteWebhook(id: string): Promise<{ id: string; deleted: true }> {
  return call(`/api/admin/webhooks/${encodeURIComponent(id)}`, 'DELETE')
}

/** GET /api/admin/webhooks/{id}/deliveries */
export async function fetchWebhookDeliveries(id: string): Promise<ApiWebhookDelivery[]> {
  return (await call<{ items: ApiWebhookDelivery[] }>(`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries`)).items
}

/** POST /api/admin/webhooks/deliveries/{deliveryId}/redeliver */
export function redeliver(deliveryId: string): Promise<{ deliveryId: string; jobId: string }> {
  return call(`/api/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, 'POST')
}
