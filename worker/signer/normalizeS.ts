import { secp256k1 } from '@noble/curves/secp256k1.js'

export type NormalizeSParameters = { r: bigint; s: bigint }
export type NormalizeSReturnType = {
  r: bigint
  s: bigint
  /** true when s was high and was replaced by n - s (which flips the recovery id) */
  flipped: boolean
}

const N = secp256k1.Point.CURVE().n
const HALF_N = N >> 1n

/**
 * EIP-2: Ethereum accepts only s <= n/2. KMS returns either half, so a high s is
 * replaced by n - s: (r, n - s) is the same signature's other, low form. Anvil would
 * accept a high s, real chains do not: this is the only guard.
 */
export function normalizeS({ r, s }: NormalizeSParameters): NormalizeSReturnType {
  if (s > HALF_N) return { r, s: N - s, flipped: true }
  return { r, s, flipped: false }
}

/** n/2, the largest s EIP-2 allows */
export const SECP256K1_HALF_N = HALF_N
