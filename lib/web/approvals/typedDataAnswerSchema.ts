import { z } from 'zod'
import { wholeNumberStringSchema } from '@/lib/web/http/decimalStringSchemas'

/** GoldMinter's EIP-712 domain as the answers carry it: its chain id a decimal string */
export const typedDataDomainAnswerSchema = z.object({
  name: z.string(),
  version: z.string(),
  chainId: wholeNumberStringSchema,
  verifyingContract: z.string(),
})

/**
 * EIP-712 typed data as a route answers it for eth_signTypedData_v4 (the control change, the compliance intents, the
 * bar list): GoldMinter's domain, the one struct type `primaryType` names and its fields, the message with its
 * numbers as decimal strings (a JSON number cannot hold a uint256).
 */
export function typedDataAnswerSchema<const P extends string, M extends z.ZodObject>(primaryType: P, message: M) {
  return z.object({
    domain: typedDataDomainAnswerSchema,
    types: z.object({ [primaryType]: z.array(z.object({ name: z.string(), type: z.string() })) } as {
      [K in P]: z.ZodArray<z.ZodObject<{ name: z.ZodString; type: z.ZodString }>>
    }),
    primaryType: z.literal(primaryType),
    message,
  })
}
