import { z } from 'zod'
import { barStatus } from '@/db/schema/vault'
import { typedDataAnswerSchema } from '@/lib/web/approvals/typedDataAnswerSchema'
import { decimalStringSchema, wholeNumberStringSchema } from '@/lib/web/http/decimalStringSchemas'

/**
 * The answers of the vault routes (docs/api.md "Vault inventory", "Bar lists") as zod schemas:
 * lib/web/vault/apiTypes.ts infers its types from them, and the OpenAPI document (lib/web/openapi) describes the
 * routes with them. Weights are decimal strings, times ISO 8601.
 */

/** A bar that is reserved or backing and that a list lacks. */
export const missingBarSchema = z.object({ serial: z.string(), refiner: z.string(), orderId: z.string().nullable() })

/** An attribute of a listed bar that differs from the inventory; never applied. */
export const barConflictSchema = z.object({
  serial: z.string(),
  refiner: z.string(),
  field: z.enum(['vault', 'year', 'grossOz', 'fineness']),
  /** the inventory's value */
  inventory: z.string(),
  /** the list's value */
  list: z.string(),
})

/** 201 answer of POST /api/admin/vault/bar-lists (the same again for the same list). */
export const barListImportSchema = z.object({
  listId: z.string(),
  vault: z.string(),
  asOf: z.string(),
  added: z.number().int(),
  unchanged: z.number().int(),
  withdrawn: z.number().int(),
  missing: z.array(missingBarSchema),
  conflicts: z.array(barConflictSchema),
})

/** One item of GET /api/admin/vault/bar-lists */
export const barListSummarySchema = z.object({
  listId: z.string(),
  vault: z.string(),
  asOf: z.string(),
  importedAt: z.string(),
  /** e-mail of the admin who imported it; null for a script (the dev seed) */
  importedBy: z.string().nullable(),
  contentSha256: z.string(),
  barCount: z.number().int(),
  added: z.number().int(),
  unchanged: z.number().int(),
  withdrawn: z.number().int(),
  missingCount: z.number().int(),
  conflictCount: z.number().int(),
  /** what the importer sent beside the bars (a custodian's own fields, as they are), or null */
  metadata: z.record(z.string(), z.unknown()).nullable(),
})

/** GET /api/admin/vault/bar-lists */
export const barListListSchema = z.object({ items: z.array(barListSummarySchema), nextCursor: z.string().nullable() })

/** One item of GET /api/vault/bars */
export const vaultBarSchema = z.object({
  id: z.string(),
  vault: z.string(),
  serial: z.string(),
  refiner: z.string(),
  year: z.number().int(),
  /** troy ounces */
  grossOz: decimalStringSchema,
  /** parts per thousand, e.g. "999.9" */
  fineness: decimalStringSchema,
  /** troy ounces */
  fineOz: decimalStringSchema,
  status: z.enum(barStatus.enumValues),
  /** the order holding the bar: shown to admins, and to staff for their own orders; else null */
  orderId: z.string().nullable(),
  /** the redemption taking the bar out of backing (open, or burned), else null */
  redemptionId: z.string().nullable(),
  updatedAt: z.string(),
})

/** GET /api/vault/bars */
export const vaultBarListSchema = z.object({
  items: z.array(vaultBarSchema),
  nextCursor: z.string().nullable(),
  /** how many bars match the filters, counted on the first page (no cursor); null on later pages */
  total: z.number().int().nullable(),
})

/** POST /api/vault/bar-lists/typed-data: the BarList a custodian signs, numbers as decimal strings */
export const barListTypedDataSchema = typedDataAnswerSchema(
  'BarList',
  z.object({
    /** vaultId(name): bytes32 */
    vault: z.string(),
    /** the list's time, Unix seconds */
    asOf: wholeNumberStringSchema,
    barsRoot: z.string(),
    totalFineWei: wholeNumberStringSchema,
  }),
)
