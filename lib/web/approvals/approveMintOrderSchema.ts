import { z } from 'zod'

/** The body of POST /api/gold/mint/{orderId}/approve: the approver's EIP-712 signature of the order's MintIntent. */
export const approveMintOrderSchema = z.object({ signature: z.string().min(1).max(10_000) })
