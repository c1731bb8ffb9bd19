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
  'redeemed',
] as const satisfies readonly BarStatus[]

/** A bar that is reserved or backing and that a list lacks. */
export type ApiMissingBar = { serial: string; refiner: string; orderId: string | null }

/** An attribute of a listed bar that differs from the inventory; never applied. */
export type ApiBarConflict = {
  serial: string
  refiner: string
  field: 'vault' | 'year' | 'grossOz' | 'fineness'
  /** the inventory's value */
  inventory: string
  /** the list's value */
  list: string
}

/** 201 answer of POST /api/admin/vault/bar-lists (the same again for the same list). */
export type ApiBarListImport = {
  listId: string
  vault: string
  asOf: string
  added: number
  unchanged: number
  withdrawn: number
  missing: ApiMissingBar[]
  conflicts: ApiBarConflict[]
}

/** One item of GET /api/admin/vault/bar-lists */
export type ApiBarListSummary = {
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

export type ApiBarListList = { items: ApiBarListSummary[]; nextCursor: string | null }

/** One item of GET /api/vault/bars */
export type ApiVaultBar = {
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
  /** the redemption taking the bar out of backing (open, or burned), else null */
  redemptionId: string | null
  updatedAt: string
}

export type ApiVaultBarList = {
  items: ApiVaultBar[]
  nextCursor: string | null
  /** how many bars match the filters, counted on the first page (no cursor); null on later pages */
  total: number | null
}
