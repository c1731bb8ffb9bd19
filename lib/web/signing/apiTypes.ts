// first: the browser's zod must not probe for eval (a CSP violation) when the schemas below are built
import '@/lib/web/zodWithoutEval'
import type { Address, Hex } from 'viem'
import { z } from 'zod'

/**
 * The answers the browser reads to sign with a person's own key (docs/api.md "How the
 * browser signs"), as zod schemas: the one place their shapes are written down on the
 * client side. Loose objects keep every field the server sends, so the typed data a
 * wallet signs is exactly the one GET .../approval gave.
 */

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address (0x and 40 hex digits)')
// the OpenAPI document (lib/web/openapi) describes the custom schemas by their override
const addressHex = z
  .custom<Address>((v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v), 'an address')
  .meta({ override: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } })
const hex = z
  .custom<Hex>((v) => typeof v === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(v), 'hex bytes (0x...)')
  .meta({ override: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' } })
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, '32 bytes of hex (0x and 64 hex digits)')
/** numbers in typed data are decimal strings (a JSON number cannot hold a uint256) */
const decimalString = z.string().regex(/^(0|[1-9][0-9]*)$/, 'a whole number as a decimal string')

const typedDataField = z.object({ name: z.string().min(1), type: z.string().min(1) })

/** EIP-712 typed data as `eth_signTypedData_v4` takes it (JSON); the message is checked by its own schema. */
export function typedDataSchema<Message extends z.ZodType>(message: Message) {
  return z.looseObject({
    domain: z.looseObject({
      name: z.string().optional(),
      version: z.string().optional(),
      chainId: z.union([decimalString, z.number().int().positive()]).optional(),
      verifyingContract: address.optional(),
    }),
    types: z.record(z.string(), z.array(typedDataField)),
    primaryType: z.string().min(1),
    message,
  })
}

/** GoldMinter's MintIntent (lib/chain/typedData.ts), as the approval answer carries it */
export const mintIntentMessageSchema = z.looseObject({
  orderId: bytes32,
  to: address,
  /** wei (1 fine oz = 10^18) */
  amount: decimalString,
  barsHash: bytes32,
  /** Unix seconds */
  deadline: decimalString,
})

/** GET /api/gold/mint/{orderId}/approval */
export const mintApprovalSchema = z.object({
  typedData: typedDataSchema(mintIntentMessageSchema),
  required: z.number().int().nonnegative(),
  signatures: z.array(z.object({ signer: address, user: z.string(), at: z.string() })),
})

export type ApiMintApproval = z.infer<typeof mintApprovalSchema>

/** GoldMinter's RedemptionIntent (lib/chain/typedData.ts), as the approval answer carries it */
export const redemptionIntentMessageSchema = z.looseObject({
  redemptionId: bytes32,
  /** GoldMinter's redemption address: the burn takes the tokens from there */
  from: address,
  /** wei (1 fine oz = 10^18) */
  amount: decimalString,
  barsHash: bytes32,
  /** Unix seconds */
  deadline: decimalString,
})

/** GET /api/gold/redemptions/{redemptionId}/approval */
export const redemptionApprovalSchema = z.object({
  typedData: typedDataSchema(redemptionIntentMessageSchema),
  required: z.number().int().nonnegative(),
  signatures: z.array(z.object({ signer: address, user: z.string(), at: z.string() })),
})

export type ApiRedemptionApproval = z.infer<typeof redemptionApprovalSchema>
/** typed data of a kind a page signs (a mint's intent, a control change), as the API gave it */
export const apiTypedDataSchema = typedDataSchema(z.record(z.string(), z.unknown()))
export type ApiTypedData = z.infer<typeof apiTypedDataSchema>

/** A key bound to a user, since when: POST /api/me/signing-key answers the one it bound */
export const boundSigningKeySchema = z.object({ address, boundAt: z.string() })

/** GET /api/me/signing-key: the text the key signs with personal_sign, and the keys bound to the signed-in user */
export const signingKeysSchema = z.object({
  text: z.string().min(1),
  keys: z.array(boundSigningKeySchema),
})

export type ApiSigningKeys = z.infer<typeof signingKeysSchema>

/** A signature and the key that made it: what the wallet layer and POST /api/dev/sign return */
export const keySignatureSchema = z.object({ address: addressHex, signature: hex })

export type ApiKeySignature = z.infer<typeof keySignatureSchema>

/** POST /api/dev/sign (dev mode only): typed data for eth_signTypedData_v4, or a text for personal_sign */
export const devSignBodySchema = z.union([
  z.strictObject({ typedData: apiTypedDataSchema }),
  z.strictObject({ message: z.string().min(1).max(2000) }),
])

export type DevSignBody = z.infer<typeof devSignBodySchema>
