import type { ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'
import { ApiError } from '@/lib/web/errors/api'

// The Controls page's one boundary with the API (docs/api.md "Recipients and limits"):
// each call throws ApiError (its code, message and issues) on a refusal. Each change
// answers 202 { changeId, status: "awaiting_second_admin" }: it applies once another
// admin confirms it (/admin/changes).

async function send<T>(path: string, method: 'POST' | 'PUT' | 'DELETE', body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    cache: 'no-store',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

/** POST /api/admin/recipients */
export function addRecipient(p: { address: string; label: string }): Promise<ApiControlChangeAccepted> {
  return send('/api/admin/recipients', 'POST', p)
}

/** DELETE /api/admin/recipients/{address} */
export function removeRecipient(address: string): Promise<ApiControlChangeAccepted> {
  return send(`/api/admin/recipients/${encodeURIComponent(address)}`, 'DELETE')
}

/** PUT /api/admin/limits */
export function putLimits(p: {
  maxOrderOz: string | null
  dailyCapOz: string | null
}): Promise<ApiControlChangeAccepted> {
  return send('/api/admin/limits', 'PUT', p)
}
