import type { ApiRecipientChoices } from '@/lib/controls/apiTypes'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { ApiError } from '@/lib/web/errors/api'
import type { ApiMintAccepted, ApiMintOrder, ApiMintOrderList, MintStatus } from '@/lib/web/mint/apiTypes'

// The browser's calls to the mint API (docs/api.md). Same-origin fetches: the session
// cookie goes along, and the browser sets the Origin header the POST check wants.

/** the first part of every order page's React Query key: invalidating it refreshes them all */
export const MINT_ORDER_QUERY_ROOT = 'mint-order'

/** the React Query key of one order's page data */
export function mintOrderQueryKey(orderId: string): readonly [typeof MINT_ORDER_QUERY_ROOT, string] {
  return [MINT_ORDER_QUERY_ROOT, orderId]
}

export async function fetchMintOrder(orderId: string, init: { signal?: AbortSignal } = {}): Promise<ApiMintOrder> {
  const res = await fetch(`/api/gold/mint/${encodeURIComponent(orderId)}`, { cache: 'no-store', signal: init.signal })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiMintOrder
}

export type FetchMintOrdersParameters = {
  status?: MintStatus
  cursor?: string | null
  limit?: number
  signal?: AbortSignal
}

export async function fetchMintOrders(p: FetchMintOrdersParameters = {}): Promise<ApiMintOrderList> {
  const query = new URLSearchParams()
  if (p.status) query.set('status', p.status)
  if (p.cursor) query.set('cursor', p.cursor)
  if (p.limit) query.set('limit', String(p.limit))
  const qs = query.toString()
  const res = await fetch(`/api/gold/mint${qs ? `?${qs}` : ''}`, { cache: 'no-store', signal: p.signal })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiMintOrderList
}

export async function postMintRequest(request: MintRequestInput, idempotencyKey: string): Promise<ApiMintAccepted> {
  const res = await fetch('/api/gold/mint', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(request),
  })
  if (res.status !== 202) throw await ApiError.from(res)
  return (await res.json()) as ApiMintAccepted
}

/** GET /api/gold/recipients: the allowlist as the mint form offers it (address and label). */
export async function fetchRecipientChoices(): Promise<ApiRecipientChoices> {
  const res = await fetch('/api/gold/recipients', { cache: 'no-store' })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiRecipientChoices
}

export const recipientChoicesQueryKey = ['recipients', 'choices'] as const
