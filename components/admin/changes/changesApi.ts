import type { KeySigner } from '@/components/wallet/keySigners'
import type {
  ApiChangeApproval,
  ApiChangeToSign,
  ApiControlChange,
  ApiControlChangeAccepted,
} from '@/lib/web/changes/apiTypes'
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

/**
 * POST /api/admin/changes/{changeId}/confirm: a change of the desk's rows applies now; one that lives on chain
 * (`signer` given) is first signed by the confirming admin (GET .../approval's typed data, exactly as given).
 */
export async function confirmChange(changeId: string, signer?: KeySigner): Promise<ApiControlChange> {
  const path = `/api/admin/changes/${encodeURIComponent(changeId)}`
  if (!signer) return post(`${path}/confirm`)
  const res = await fetch(`${path}/approval`, { cache: 'no-store', headers: { accept: 'application/json' } })
  if (!res.ok) throw await ApiError.from(res)
  const approval = (await res.json()) as ApiChangeApproval
  const { signature } = await signer.signTypedData({ typedData: approval.typedData })
  return post(`${path}/confirm`, { signature })
}

/**
 * A change that lives on chain, proposed: POST /api/admin/changes/typed-data gives its id, deadline and typed
 * data, the author's signer signs it, POST /api/admin/changes carries the signature.
 */
export async function proposeOnChainChange(
  change: { kind: string; params: Record<string, unknown> },
  signer: KeySigner,
): Promise<ApiControlChangeAccepted> {
  const toSign = await post<ApiChangeToSign>('/api/admin/changes/typed-data', change)
  const { signature } = await signer.signTypedData({ typedData: toSign.typedData })
  return post('/api/admin/changes', { ...change, changeId: toSign.changeId, deadline: toSign.deadline, signature })
}

/** POST /api/admin/changes/{changeId}/reject */
export function rejectChange(changeId: string, reason: string): Promise<ApiControlChange> {
  return post(`/api/admin/changes/${encodeURIComponent(changeId)}/reject`, { reason })
}
