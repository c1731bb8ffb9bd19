import { ApiError } from '@/lib/web/errors/api'
import type { ApiBarListImport, ApiBarListList, ApiVaultBarList } from '@/lib/web/vault/apiTypes'
import { type VaultBarsQuery, vaultBarsUrl } from './vaultBarsUrl'

// The browser's calls to the vault inventory API (docs/api.md, Vault inventory). Same-origin
// fetches: the session cookie goes along, and the browser sets the Origin the POST check
// wants. Errors are thrown as ApiError (with the status, so React Query skips a 4xx).

export async function fetchVaultBars(
  query: VaultBarsQuery,
  init: { signal?: AbortSignal } = {},
): Promise<ApiVaultBarList> {
  const res = await fetch(vaultBarsUrl(query), { cache: 'no-store', signal: init.signal })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiVaultBarList
}

export async function fetchBarLists(
  cursor: string | null,
  init: { signal?: AbortSignal } = {},
): Promise<ApiBarListList> {
  const qs = cursor ? `?${new URLSearchParams({ cursor }).toString()}` : ''
  const res = await fetch(`/api/admin/vault/bar-lists${qs}`, { cache: 'no-store', signal: init.signal })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiBarListList
}

/** Sends a bar-list file as it is (its bytes, not parsed here) with its content type and the custodian's signature. */
export async function postBarList({
  url,
  contentType,
  file,
  custodianSignature,
}: {
  url: string
  contentType: string
  file: Blob
  custodianSignature: string
}): Promise<ApiBarListImport> {
  const headers: Record<string, string> = { 'content-type': contentType }
  if (custodianSignature) headers['custodian-signature'] = custodianSignature
  const res = await fetch(url, { method: 'POST', headers, body: file })
  if (res.status !== 201) throw await ApiError.from(res)
  return (await res.json()) as ApiBarListImport
}
