import { z } from 'zod'

/**
 * GET /api/reserves/lookup?address=0x... | ?tx=0x...: exactly one of the two, each a
 * single value (a repeated key is an array and fails). Output: `{ address }` or `{ tx }`.
 */
export const reserveLookupQuerySchema = z
  .object({
    address: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be an address: 0x and 40 hex digits' })
      .optional(),
    tx: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash: 0x and 64 hex digits' })
      .optional(),
  })
  .transform(({ address, tx }, ctx): { address: string } | { tx: string } => {
    if (tx !== undefined && address === undefined) return { tx }
    if (address !== undefined && tx === undefined) return { address }
    ctx.addIssue({
      code: 'custom',
      path: [address === undefined ? 'address' : 'tx'],
      message: 'give exactly one of address and tx',
    })
    return z.NEVER
  })

export type ReserveLookupQuery = z.output<typeof reserveLookupQuerySchema>
