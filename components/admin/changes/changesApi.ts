import type { ApiControlChange } from '@/lib/web/changes/apiTypes'
import { ApiError } from '@/lib/web/errors/api'

// The Changes page's one boundary with the API (docs/api.md "Control changes need a second
// admin"): each call throws ApiError (its code, e.g. self_approval, and message) on a refusal.

async function post<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    cache: 'no-store',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

/** POST /api/admin/changes/{changeId}/confirm: the change applies now. */
export function confirmChange(changeId: string): Promise<ApiControlChange> {
  return post(`/api/admin/changes/${encodeURIComponent(changeId)}/confirm`)
}

/** POST /api/admin/changes/{changeId}/reject */
export function rejectChange(changeId: string, reason: string): Promise<ApiControlChange> {
  return post(`/api/admin/changes/${encodeURIComponent(changeId)}/reject`, { reason })
}
