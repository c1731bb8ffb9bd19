import { fetchJson } from '@/components/jobs/jobsApi'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import type { ApiReserveLookup, ApiReserves } from '@/lib/web/reserves/apiTypes'

/**
 * What the lookup box holds, once recognised: an address (0x + 40 hex), a transaction hash (0x + 64 hex) or a bar
 * serial (anything else a serial may be).
 */
export type LookupQuery = { address: string } | { tx: string } | { serial: string }

/** The box's text as a query, or null when it is none of an address, a transaction hash and a bar serial. */
export function parseLookupInput(text: string): LookupQuery | null {
  const value = text.trim()
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return { address: value }
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { tx: value }
  // a 0x prefix that is neither: a mistyped address or hash, not a serial
  if (/^0x/i.test(value)) return null
  const key = normalizeBarKey(value)
  return key.ok && value.length <= 64 ? { serial: value } : null
}

/** The text a query puts back in the box. */
export function lookupText(query: LookupQuery): string {
  return 'tx' in query ? query.tx : 'address' in query ? query.address : query.serial
}

/** The query string of a lookup: `address=0x...`, `tx=0x...` or `serial=...`. */
export function lookupSearch(query: LookupQuery): string {
  return new URLSearchParams(query).toString()
}

export function fetchReserveLookup(query: LookupQuery): Promise<ApiReserveLookup> {
  return fetchJson<ApiReserveLookup>(`/api/reserves/lookup?${lookupSearch(query)}`)
}

export const reserveLookupQueryKey = (query: LookupQuery | null) => ['reserves', 'lookup', query] as const

/** GET /api/reserves: read when asked, behind the web's few-second cache (the figures /reserves shows). */
export function fetchReserves(): Promise<ApiReserves> {
  return fetchJson<ApiReserves>('/api/reserves')
}

export const reservesQueryKey = ['reserves', 'summary'] as const
