import { ApiError } from '@/lib/web/errors/api'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'

// The browser's calls to approve or reject an order (docs/api.md). Same-origin POSTs:
// the session cookie goes along, the browser sets the Origin the server checks.

export async function postApproval(orderId: string): Promise<ApiMintOrder> {
  const res = await fetch(`/api/gold/mint/${encodeURIComponent(orderId)}/approve`, { method: 'POST' })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiMintOrder
}

export async function postRejection(orderId: string, reason: string): Promise<ApiMintOrder> {
  const res = await fetch(`/api/gold/mint/${encodeURIComponent(orderId)}/reject`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reason }),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiMintOrder
}
