import type { KeySigner } from '@/components/wallet/keySigners'
import type {
  ApiComplianceAccepted,
  ApiComplianceApproval,
  ApiComplianceBatchAccepted,
  ApiComplianceOperation,
} from '@/lib/web/compliance/apiTypes'
import { ApiError } from '@/lib/web/errors/api'

// The compliance page's one boundary with the API (docs/api.md "Compliance operations"): each call throws
// ApiError (its code, e.g. self_approval, its message and issues) on a refusal.

/** What an admin asks for: the action and, for a freeze or unfreeze, the addresses */
export type ComplianceRequest = {
  action: 'freeze' | 'unfreeze' | 'pause' | 'unpause'
  addresses: string[]
  reason: string
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    cache: 'no-store',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

/**
 * POST /api/admin/compliance/{action}: one address as `address`, several as `addresses` (a batch), none for a
 * pause or unpause.
 */
export function requestCompliance(
  request: ComplianceRequest,
): Promise<ApiComplianceAccepted | ApiComplianceBatchAccepted> {
  const { action, addresses, reason } = request
  const target =
    action === 'pause' || action === 'unpause' ? {} : addresses.length === 1 ? { address: addresses[0] } : { addresses }
  return post(`/api/admin/compliance/${action}`, { ...target, reason })
}

/** GET .../approval's typed data signed exactly as given by `signer`, then POST .../approve with the signature */
export async function approveOperation(operationId: string, signer: KeySigner): Promise<ApiComplianceOperation> {
  const path = `/api/admin/compliance/operations/${encodeURIComponent(operationId)}`
  const res = await fetch(`${path}/approval`, { cache: 'no-store', headers: { accept: 'application/json' } })
  if (!res.ok) throw await ApiError.from(res)
  const approval = (await res.json()) as ApiComplianceApproval
  const { signature } = await signer.signTypedData({ typedData: approval.typedData })
  return post(`${path}/approve`, { signature })
}

/** POST .../reject with a reason */
export function rejectOperation(operationId: string, reason: string): Promise<ApiComplianceOperation> {
  return post(`/api/admin/compliance/operations/${encodeURIComponent(operationId)}/reject`, { reason })
}
