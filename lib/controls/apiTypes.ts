import type { z } from 'zod'
import type {
  allowedRecipientSchema,
  mintLimitsSchema,
  recipientChoiceListSchema,
  removedRecipientSchema,
} from './responseSchemas'

/**
 * The JSON shapes of the recipient and limit routes (docs/api.md "Recipients and limits"), inferred from their zod
 * schemas (./responseSchemas.ts, which the OpenAPI document describes the routes with). The import is type-only: a
 * component reading this file loads no schema.
 */

/** One address on the recipient allowlist. */
export type ApiAllowedRecipient = z.infer<typeof allowedRecipientSchema>

/** An address taken off the allowlist. */
export type ApiRemovedRecipient = z.infer<typeof removedRecipientSchema>

/** The mint limits; null means unlimited. */
export type ApiMintLimits = z.infer<typeof mintLimitsSchema>

/** GET /api/gold/recipients */
export type ApiRecipientChoices = z.infer<typeof recipientChoiceListSchema>
