import { ApiError } from '@/lib/web/errors/api'
import type { ApiReconciliation } from '@/lib/web/reconciliation/schemas'

// The chain reconciliation panel's one boundary with the API (docs/api.md, GET /api/admin/reconciliation and
// POST /api/admin/reconciliation/{id}/resolve): each call throws ApiError on a refusal.

export const reconciliationQueryKey = ['admin', 'reconciliation'] as const

/** GET /api/admin/reconciliation */
export async function fetchReconciliation(): Promise<ApiReconciliation> {
  const res = await fetch('/api/admin/reconciliation', { cache: 'no-store', headers: { accept: 'application/json' } })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiReconciliation
}

/** POST /api/admin/reconciliation/{id}/resolve */
export async function resolveEvent(p: { id: string; note: string }): Promise<void> {
  const res = await fetch(`/api/admin/reconciliation/${encodeURIComponent(p.id)}/resolve`, {
    method: 'POST',
    cache: 'no-store',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ note: p.note }),
  })
  if (!res.ok) throw await ApiError.from(res)
}
