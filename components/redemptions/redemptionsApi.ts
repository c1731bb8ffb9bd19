import { ApiError } from '@/lib/web/errors/api'
import type { ApiDeposit, ApiRedemption, ApiRedemptionSummary } from '@/lib/web/redemptions/apiTypes'
import type { CreateRedemptionInput } from '@/lib/web/redemptions/schemas'
import { type ApiRedemptionApproval, redemptionApprovalSchema } from '@/lib/web/signing/apiTypes'

// The browser's calls to the redemption API (docs/api.md "Redemptions"). Same-origin fetches: the session cookie
// goes along, and the browser sets the Origin header the POST check wants. A refusal is thrown as ApiError.

export type RedemptionStatus = ApiRedemption['status']
export type DepositStatus = ApiDeposit['status']
export type ApiRedemptionList = { items: ApiRedemptionSummary[]; nextCursor: string | null }

/** the first part of every redemption query key: invalidating it refreshes lists and pages */
export const REDEMPTIONS_QUERY_ROOT = 'redemptions'

export const redemptionQueryKey = (redemptionId: string) => [REDEMPTIONS_QUERY_ROOT, 'one', redemptionId] as const
export const redemptionApprovalQueryKey = (redemptionId: string) =>
  [REDEMPTIONS_QUERY_ROOT, 'approval', redemptionId] as const
export const redemptionListQueryKey = (status: RedemptionStatus | '') =>
  [REDEMPTIONS_QUERY_ROOT, 'list', { status }] as const
export const depositsQueryKey = [REDEMPTIONS_QUERY_ROOT, 'deposits'] as const

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { cache: 'no-store', signal, headers: { accept: 'application/json' } })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

async function postJson<T>(url: string, body: unknown, expected = 200): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  if (res.status !== expected) throw await ApiError.from(res)
  return (await res.json()) as T
}

/** GET /api/gold/deposits: every deposit the worker has seen, newest first */
export function fetchDeposits({ signal }: { signal?: AbortSignal } = {}): Promise<{ items: ApiDeposit[] }> {
  return getJson('/api/gold/deposits?limit=200', signal)
}

export type FetchRedemptionsParameters = { status?: RedemptionStatus; cursor?: string | null; signal?: AbortSignal }

/** GET /api/gold/redemptions?status=&cursor=: newest first, in pages */
export function fetchRedemptions(p: FetchRedemptionsParameters = {}): Promise<ApiRedemptionList> {
  const query = new URLSearchParams()
  if (p.status) query.set('status', p.status)
  if (p.cursor) query.set('cursor', p.cursor)
  const qs = query.toString()
  return getJson(`/api/gold/redemptions${qs ? `?${qs}` : ''}`, p.signal)
}

/** GET /api/gold/redemptions/{id}: the redemption with its bars, signatures and timeline */
export function fetchRedemption(redemptionId: string, { signal }: { signal?: AbortSignal } = {}) {
  return getJson<ApiRedemption>(`/api/gold/redemptions/${encodeURIComponent(redemptionId)}`, signal)
}

/** POST /api/gold/redemptions: 202 `{ redemptionId, status: 'awaiting_approval' }` */
export function postRedemption(input: CreateRedemptionInput): Promise<{ redemptionId: string; status: string }> {
  return postJson('/api/gold/redemptions', input, 202)
}

/** GET .../approval: the RedemptionIntent as EIP-712 typed data, how many must sign, who has */
export async function fetchRedemptionApproval(redemptionId: string): Promise<ApiRedemptionApproval> {
  const body = await getJson<unknown>(`/api/gold/redemptions/${encodeURIComponent(redemptionId)}/approval`)
  const parsed = redemptionApprovalSchema.safeParse(body)
  if (!parsed.success)
    throw new ApiError({ status: 200, code: 'http_error', message: 'The intent to sign is not readable.' })
  return parsed.data
}

/** POST .../approve with the approver's EIP-712 signature of the intent */
export function postRedemptionApproval(redemptionId: string, signature: string): Promise<ApiRedemption> {
  return postJson(`/api/gold/redemptions/${encodeURIComponent(redemptionId)}/approve`, { signature })
}

/** POST .../reject with the reason the requester reads */
export function postRedemptionRejection(redemptionId: string, reason: string): Promise<ApiRedemption> {
  return postJson(`/api/gold/redemptions/${encodeURIComponent(redemptionId)}/reject`, { reason })
}
