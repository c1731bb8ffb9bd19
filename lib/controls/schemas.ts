// first: the browser's zod must not probe for eval (a CSP violation) when the schemas below are built
import '@/lib/web/zodWithoutEval'
import { z } from 'zod'
import { controlFieldSchemas } from '@/lib/mint/mintRequestSchema'

/**
 * The zod schemas of the recipient and limit routes (docs/api.md "Recipients and
 * limits"). Client-safe: the Controls page runs the same rules before it sends. An
 * address follows the mint request's rule (20-byte hex, checksummed if mixed case, not
 * the zero address; output checksummed); a label its text rule (1 to 64 printable
 * characters, whitespace tidied).
 */

/** POST /api/admin/recipients */
export const addRecipientBodySchema = z.strictObject({
  address: controlFieldSchemas.address,
  label: controlFieldSchemas.text,
})

/** `{address}` in DELETE /api/admin/recipients/{address} */
export const recipientParamsSchema = z.object({ address: controlFieldSchemas.address })

/** A limit: fine oz > 0 with at most 3 decimals, or null for unlimited. */
const limitOz = z.union([controlFieldSchemas.amount, z.null()])

/** PUT /api/admin/limits: both fields, each a decimal string or null (unlimited). */
export const setMintLimitsBodySchema = z.strictObject({ maxOrderOz: limitOz, dailyCapOz: limitOz })

export type AddRecipientBody = z.output<typeof addRecipientBodySchema>
export type SetMintLimitsBody = z.output<typeof setMintLimitsBodySchema>
