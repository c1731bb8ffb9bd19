import { ApiError } from '@/lib/web/errors/api'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { type ApiMintApproval, mintApprovalSchema } from '@/lib/web/signing/apiTypes'

// The browser's calls to sign, approve or reject an order (docs/api.md). Same-origin
// requests: the session cookie goes along, the browser sets the Origin the server checks.

/** GET /api/gold/mint/{orderId}/approval: the intent as EIP-712 typed data, how many must sign, who has */
export async function fetchMintApproval(orderId: string): Promise<ApiMintApproval> {
  const res = await fetch(`/api/gold/mint/${encodeURIComponent(orderId)}/approval`, {
    cache: 'no-store',
    headers: { accept: 'application/json' },
  })
  if (!res.ok) throw await ApiError.from(res)
  const parsed = mintApprovalSchema.safeParse(await res.json())
  if (!parsed.success) {
    throw new ApiError({ status: res.status, code: 'http_error', message: 'The intent to sign is not readable.' })
  }
  return parsed.data
}

export const mintApprovalQueryKey = (orderId: string) => ['approvals', orderId, 'approval'] as const

/** POST /api/gold/mint/{orderId}/approve with the approver's EIP-712 signature of the intent */
export async function postApproval(orderId: string, { signature }: { signature: string }): Promise<ApiMintOrder> {
  const res = await fetch(`/api/gold/mint/${encodeURIComponent(orderId)}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signature }),
  })
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
