import type { BarStatus } from '@/lib/web/vault/apiTypes'

export type VaultBarsQuery = {
  vault?: string
  status?: BarStatus
  /** searched in serial and refiner */
  q?: string
  cursor?: string | null
  limit?: number
}

/** The URL of GET /api/vault/bars for a query: blank parts are left out, the search text trimmed. */
export function vaultBarsUrl(query: VaultBarsQuery): string {
  const params = new URLSearchParams()
  const vault = query.vault?.trim()
  const q = query.q?.trim()
  if (vault) params.set('vault', vault)
  if (query.status) params.set('status', query.status)
  if (q) params.set('q', q)
  if (query.cursor) params.set('cursor', query.cursor)
  if (query.limit !== undefined) params.set('limit', String(query.limit))
  const qs = params.toString()
  return `/api/vault/bars${qs ? `?${qs}` : ''}`
}
