import type { Address, Hex, PublicClient, TypedDataDefinition } from 'viem'
import { isEoaSignature } from './isEoaSignature'

export type IsValidSignatureParameters = {
  signer: Address
  signature: Hex
  /** hashTypedData(typedData) */
  digest: Hex
  typedData: TypedDataDefinition
}

/**
 * Whether `signature` is `signer`'s signature of the typed data, as GoldMinter's
 * SignatureChecker takes it: an EOA's ECDSA (isEoaSignature), else a contract signer's (a Safe)
 * ERC-1271 answer through the chain.
 */
export async function isValidSignature(
  ctx: { chain: Pick<PublicClient, 'getCode' | 'verifyTypedData'> },
  p: IsValidSignatureParameters,
): Promise<boolean> {
  if (await isEoaSignature({ digest: p.digest, signature: p.signature, signer: p.signer })) return true
  const code = await ctx.chain.getCode({ address: p.signer }).catch(() => undefined)
  if (!code || code === '0x') return false
  return ctx.chain.verifyTypedData({ ...p.typedData, address: p.signer, signature: p.signature }).catch(() => false)
}
