import { fetchJson } from '@/components/jobs/jobsApi'
import type { ApiReserveLookup } from '@/lib/web/reserves/apiTypes'

/** What the lookup box holds, once recognised: an address (0x + 40 hex) or a transaction hash (0x + 64 hex). */
export type LookupQuery = { address: string } | { tx: string }

/** The box's text as a query, or null when it is neither an address nor a transaction hash. */
export function parseLookupInput(text: string): LookupQuery | null {
  const value = text.trim()
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return { address: value }
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { tx: value }
  return null
}

/** The query string of a lookup: `address=0x...` or `tx=0x...`. */
export function lookupSearch(query: LookupQuery): string {
  return new URLSearchParams('tx' in query ? { tx: query.tx } : { address: query.address }).toString()
}

export function fetchReserveLookup(query: LookupQuery): Promise<ApiReserveLookup> {
  return fetchJson<ApiReserveLookup>(`/api/reserves/lookup?${lookupSearch(query)}`)
}

export const reserveLookupQueryKey = (query: LookupQuery | null) => ['reserves', 'lookup', query] as const
