import { fetchJson } from '@/components/jobs/jobsApi'
import type { KeySigner } from '@/components/wallet/keySigners'
import type { ApiChangeToSign, ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'

// The signers panel's one boundary with the API (docs/decisions/064-operator-nonce-actions.md): each call throws
// ApiError (its code and message, in words) on a refusal.

function post<T>(url: string, body?: unknown): Promise<T> {
  return fetchJson<T>(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const signerPath = (address: string) => `/api/admin/signers/${encodeURIComponent(address)}`
const noncePath = (p: { signerAddress: string; nonce: number }) => `${signerPath(p.signerAddress)}/nonces/${p.nonce}`

export type SignerActionAccepted = { jobId: string; signerAddress: string; nonce?: number }

/** POST /api/admin/signers/{address}/nonces/{nonce}/speed-up: the worker re-signs the nonce's own call at the fees. */
export function speedUpNonce(p: {
  signerAddress: string
  nonce: number
  body: { maxFeePerGas: string; maxPriorityFeePerGas: string }
}): Promise<SignerActionAccepted> {
  return post(`${noncePath(p)}/speed-up`, p.body)
}

/**
 * A nonce's cancel, proposed: POST /api/admin/changes/typed-data gives the nonce.cancel change's id, deadline and
 * typed data, the admin's own key signs it, POST .../nonces/{nonce}/cancel carries the signature. A second admin
 * confirms it on /admin/changes.
 */
export async function proposeNonceCancel(p: {
  signerAddress: string
  nonce: number
  signer: KeySigner
}): Promise<ApiControlChangeAccepted> {
  const toSign = await post<ApiChangeToSign>('/api/admin/changes/typed-data', {
    kind: 'nonce.cancel',
    params: { signerAddress: p.signerAddress, nonce: p.nonce },
  })
  const { signature } = await p.signer.signTypedData({ typedData: toSign.typedData })
  return post(`${noncePath(p)}/cancel`, { changeId: toSign.changeId, deadline: toSign.deadline, signature })
}

/** POST /api/admin/signers/{address}/resync: the worker's nonce_resync for this signer. */
export function resyncSigner(signerAddress: string): Promise<SignerActionAccepted> {
  return post(`${signerPath(signerAddress)}/resync`)
}
