import type { z } from 'zod'
import type { BarStatus } from '@/db/schema/vault'
import type {
  barConflictSchema,
  barListImportSchema,
  barListListSchema,
  barListSummarySchema,
  barListTypedDataSchema,
  missingBarSchema,
  vaultBarListSchema,
  vaultBarSchema,
} from './responseSchemas'

// The API's shapes of the vault inventory (docs/api.md, Vault inventory), inferred from their zod schemas
// (./responseSchemas.ts); the import is type-only. Weights are decimal strings, times ISO 8601.

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
export type ApiMissingBar = z.infer<typeof missingBarSchema>

/** An attribute of a listed bar that differs from the inventory; never applied. */
export type ApiBarConflict = z.infer<typeof barConflictSchema>

/** 201 answer of POST /api/admin/vault/bar-lists (the same again for the same list). */
export type ApiBarListImport = z.infer<typeof barListImportSchema>

/** One item of GET /api/admin/vault/bar-lists */
export type ApiBarListSummary = z.infer<typeof barListSummarySchema>

export type ApiBarListList = z.infer<typeof barListListSchema>

/** One item of GET /api/vault/bars */
export type ApiVaultBar = z.infer<typeof vaultBarSchema>

export type ApiVaultBarList = z.infer<typeof vaultBarListSchema>

/** POST /api/vault/bar-lists/typed-data */
export type ApiBarListTypedData = z.infer<typeof barListTypedDataSchema>
