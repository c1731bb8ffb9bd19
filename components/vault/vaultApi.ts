import { ApiError } from '@/lib/web/errors/api'
import type { ApiBarListImport, ApiBarListList, ApiVaultBarList } from '@/lib/web/vault/apiTypes'
import type { ImportProgress, OnImportProgress } from '@/lib/web/vault/importProgress'
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

/**
 * Sends a bar-list file as it is (its bytes, not parsed here) with its content type and the custodian's signature,
 * asking for the answer as progress lines (docs/api.md "Bar lists"): `onProgress` hears each step, the result line
 * gives the import (201) or its refusal, thrown as ApiError like every other.
 */
export async function postBarList({
  url,
  contentType,
  file,
  custodianSignature,
  onProgress,
}: {
  url: string
  contentType: string
  file: Blob
  custodianSignature: string
  onProgress?: OnImportProgress
}): Promise<ApiBarListImport> {
  const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/x-ndjson' }
  if (custodianSignature) headers['custodian-signature'] = custodianSignature
  const res = await fetch(url, { method: 'POST', headers, body: file })
  // refused before the import began (session, origin, media type, size): a plain error answer
  if (res.status !== 200 || !res.body) throw await ApiError.from(res)
  let result: { status: number; body: unknown } | null = null
  for await (const line of ndjsonLines(res.body)) {
    if (isProgressLine(line)) onProgress?.({ phase: line.phase, done: line.done, total: line.total })
    else if (isResultLine(line)) result = line
  }
  if (!result) throw new ApiError({ status: 502, code: 'http_error', message: 'The import answered no result.' })
  if (result.status !== 201)
    throw await ApiError.from(new Response(JSON.stringify(result.body), { status: result.status }))
  return result.body as ApiBarListImport
}

/** Each line of a stream of JSON lines, parsed, as it arrives. */
async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  for (;;) {
    const { done, value } = await reader.read()
    buffered += done ? decoder.decode() : decoder.decode(value, { stream: true })
    const lines = buffered.split('\n')
    buffered = done ? '' : (lines.pop() ?? '')
    for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as unknown
    if (done) return
  }
}

function isProgressLine(line: unknown): line is { type: 'progress' } & ImportProgress {
  return typeof line === 'object' && line !== null && (line as { type?: unknown }).type === 'progress'
}

function isResultLine(line: unknown): line is { type: 'result'; status: number; body: unknown } {
  return typeof line === 'object' && line !== null && (line as { type?: unknown }).type === 'result'
}
