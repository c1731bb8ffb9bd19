import { z } from 'zod'

/** The longest rejection reason (docs/api.md: 1 to 500 characters). */
export const MAX_REJECTION_REASON = 500

/** Body of POST /api/gold/mint/{orderId}/reject: why, for the requester and the audit. */
export const rejectMintOrderSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'say why the order is rejected')
    .max(MAX_REJECTION_REASON, `at most ${MAX_REJECTION_REASON} characters`),
})

export type RejectMintOrderInput = z.input<typeof rejectMintOrderSchema>
