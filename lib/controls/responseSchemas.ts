import { z } from 'zod'

/**
 * The answers of the recipient and limit routes (docs/api.md "Recipients and limits") as zod schemas:
 * lib/controls/apiTypes.ts infers its types from them, and the OpenAPI document (lib/web/openapi) describes the routes
 * with them. Addresses checksummed, amounts fine-oz decimal strings, times ISO 8601.
 */

/** One address on the recipient allowlist. */
export const allowedRecipientSchema = z.object({
  address: z.string(),
  label: z.string(),
  /** the admin who added it (null: seeded by the local stack or a migration) */
  addedBy: z.string().nullable(),
  addedAt: z.string(),
})

/** An address taken off the allowlist (a confirmed `recipient.remove` answers it). */
export const removedRecipientSchema = z.object({ address: z.string(), label: z.string(), removed: z.literal(true) })

/** GET /api/admin/recipients */
export const allowedRecipientListSchema = z.object({ items: z.array(allowedRecipientSchema) })

/** GET /api/gold/recipients: the allowlist as the mint form offers it, address and label only */
export const recipientChoiceListSchema = z.object({
  items: z.array(z.object({ address: z.string(), label: z.string() })),
})

/** The mint limits; null means unlimited. */
export const mintLimitsSchema = z.object({
  maxOrderOz: z.string().nullable(),
  dailyCapOz: z.string().nullable(),
  /** in flight + mined in the last 24 h + requested in the last 24 h and awaiting approval: what the cap counts now */
  last24hOz: z.string(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
})
