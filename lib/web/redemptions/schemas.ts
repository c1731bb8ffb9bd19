import { z } from 'zod'

/** The most bars one redemption takes (whole bars: a deposit of many bars is rare). */
export const MAX_REDEMPTION_BARS = 100

/** Body of POST /api/gold/redemptions: a deposit matched to whole backing bars of equal fine weight. */
export const createRedemptionSchema = z.object({
  depositTx: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a transaction hash (0x and 64 hex digits)')
    .transform((s) => s.toLowerCase()),
  /** which transfer of the transaction, when it holds several deposits */
  logIndex: z.number().int().min(0).optional(),
  bars: z
    .array(z.object({ serial: z.string().trim().min(1).max(64), refiner: z.string().trim().min(1).max(128) }))
    .min(1, 'at least one bar')
    .max(MAX_REDEMPTION_BARS, `at most ${MAX_REDEMPTION_BARS} bars`),
  reference: z.string().trim().min(1, 'a reference (the release instruction, a ticket)').max(200),
})
export type CreateRedemptionInput = z.input<typeof createRedemptionSchema>

export const redemptionIdParamsSchema = z.object({ redemptionId: z.string() })

export const depositStatusSchema = z.enum(['unmatched', 'matched', 'redeemed'])

/** GET /api/gold/deposits?status=&limit= */
export const listDepositsQuerySchema = z.object({
  status: depositStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})

export const redemptionStatusSchema = z.enum([
  'awaiting_approval',
  'pending',
  'submitted',
  'burned',
  'failed',
  'rejected',
  'cancelled',
])

/** GET /api/gold/redemptions?status=&cursor=&limit= */
export const listRedemptionsQuerySchema = z.object({
  status: redemptionStatusSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
})
