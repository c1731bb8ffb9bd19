import { z } from 'zod'
import { redemptionStatusSchema } from './schemas'

/**
 * The answers of the redemption routes (docs/api.md "Redemptions") as zod schemas: lib/web/redemptions/apiTypes.ts
 * infers its types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Amounts
 * are fine ounces as decimal strings, times ISO 8601 strings.
 */

export const depositSchema = z
  .object({
    txHash: z.string(),
    logIndex: z.number().int(),
    /** the holder who sent the tokens */
    from: z.string(),
    amount: z.string(),
    blockNumber: z.string(),
    status: z.enum(['unmatched', 'matched', 'redeemed']),
    /** the redemption that matches it (not rejected or cancelled), if one does */
    redemptionId: z.string().nullable(),
    seenAt: z.string(),
  })
  .meta({ id: 'Deposit' })

export const depositListSchema = z.object({ items: z.array(depositSchema) })

export const redemptionBarSchema = z.object({
  serial: z.string(),
  refiner: z.string(),
  vault: z.string(),
  fineOz: z.string(),
  /** backing until the burn has its confirmations, then redeemed (withdrawn once a list lacks it) */
  status: z.string(),
  /** the mint order the bar backed */
  orderId: z.string().nullable(),
})

const redemptionFields = {
  redemptionId: z.string(),
  status: redemptionStatusSchema,
  depositTx: z.string(),
  depositLogIndex: z.number().int(),
  holder: z.string(),
  amount: z.string(),
  reference: z.string(),
  requestedBy: z.string(),
  txHash: z.string().nullable(),
  blockNumber: z.string().nullable(),
  failureReason: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  intentDeadline: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  burnedAt: z.string().nullable(),
}

export const redemptionSchema = z
  .object({
    ...redemptionFields,
    bars: z.array(redemptionBarSchema),
    signatures: z.array(z.object({ signer: z.string(), user: z.string(), at: z.string() })),
    timeline: z.array(z.object({ at: z.string(), event: z.string(), detail: z.string().nullable() })),
  })
  .meta({ id: 'Redemption' })

/** a redemption in a list: its bars counted */
export const redemptionSummarySchema = z.object({ ...redemptionFields, bars: z.number().int() })

export const redemptionListSchema = z.object({
  items: z.array(redemptionSummarySchema),
  nextCursor: z.string().nullable(),
})

export const redemptionAcceptedSchema = z.object({
  redemptionId: z.string(),
  status: z.literal('awaiting_approval'),
})
