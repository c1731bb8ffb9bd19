import type { BarStatus } from '@/db/schema/vault'

// The API's shapes of the vault inventory (docs/api.md, Vault inventory). Weights are decimal
// strings, times ISO 8601.

export type { BarStatus }

export const barStatuses = [
  'available',
  'reserved',
  'backing',
  'missing',
  'withdrawn',
] as const satisfies readonly BarStatus[]

/** A bar that is reserved or backing and that a list lacks. */
export type MissingBar = { serial: string; refiner: string; orderId: string | null }

/** An attribute of a listed bar that differs from the inventory; never applied. */
export type BarConflict = {
  serial: string
  refiner: string
  field: 'vault' | 'year' | 'grossOz' | 'fineness'
  /** the inventory's value */
  inventory: string
  /** the list's value */
  list: string
}

/** 201 answer of POST /api/admin/vault/bar-lists (the same again for the same list). */
export type BarListImportResponse = {
  listId: string
  vault: string
  asOf: string
  added: number
  unchanged: number
  withdrawn: number
  missing: MissingBar[]
  conflicts: BarConflict[]
}

/** One item of GET /api/admin/vault/bar-lists */
export type BarListSummary = {
  listId: string
  vault: string
  asOf: string
  importedAt: string
  /** e-mail of the admin who imported it; null for a script (the dev seed) */
  importedBy: string | null
  contentSha256: string
  barCount: number
  added: number
  unchanged: number
  withdrawn: number
  missingCount: number
  conflictCount: number
  metadata: Record<string, unknown> | null
}

export type BarListListResponse = { items: BarListSummary[]; nextCursor: string | null }

/** One item of GET /api/vault/bars */
export type VaultBarResponse = {
  id: string
  vault: string
  serial: string
  refiner: string
  year: number
  grossOz: string
  fineness: string
  fineOz: string
  status: BarStatus
  /** the order holding the bar: shown to admins, and to staff for their own orders; else null */
  orderId: string | null
  updatedAt: string
}

export type VaultBarListResponse = { items: VaultBarResponse[]; nextCursor: string | null }
