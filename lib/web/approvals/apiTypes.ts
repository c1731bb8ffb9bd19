import type { z } from 'zod'
import type { boundSigningKeySchema } from '@/lib/web/signing/apiTypes'

/** GET /api/gold/mint/{orderId}/approval: the order's MintIntent as EIP-712 typed data, numbers as decimal strings. */
export type ApiMintApproval = {
  typedData: {
    domain: { name: string; version: string; chainId: string; verifyingContract: string }
    types: { MintIntent: readonly { name: string; type: string }[] }
    primaryType: 'MintIntent'
    message: { orderId: string; to: string; amount: string; barsHash: string; deadline: string }
  }
  /** GoldMinter.requiredApprovals(amount) */
  required: number
  signatures: ApiMintSignature[]
}

export type ApiMintSignature = { signer: string; user: string; at: string }

/** GET /api/me/signing-key: the text a key personal_signs to be bound to the signed-in user, and the keys bound. */
export type ApiSigningKeyChallenge = { text: string; keys: { address: string; boundAt: string }[] }

/** POST /api/me/signing-key: the key now bound. */
export type ApiSigningKey = z.infer<typeof boundSigningKeySchema>
