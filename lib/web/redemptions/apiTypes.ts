import type { z } from 'zod'
import type { depositSchema, redemptionBarSchema, redemptionSchema, redemptionSummarySchema } from './responseSchemas'

/** The redemption routes' answers, inferred from their schemas (lib/web/redemptions/responseSchemas.ts). */
export type ApiDeposit = z.infer<typeof depositSchema>
export type ApiRedemptionBar = z.infer<typeof redemptionBarSchema>
export type ApiRedemption = z.infer<typeof redemptionSchema>
export type ApiRedemptionSummary = z.infer<typeof redemptionSummarySchema>
