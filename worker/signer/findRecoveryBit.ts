import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, type Hex, hexToBigInt } from 'viem'

const { Point } = secp256k1
type Point = typeof Point.BASE
const { Fn } = Point
const G = Point.BASE
/** wNAF window of each key's cached multiplication table (G's own is noble's) */
const WINDOW = 8
/**
 * the public keys with their tables (about 0.7 MB each): this worker's signers and the approvers and
 * custodians whose signatures it checks (worker/approvals/isEoaSignature.ts); past MAX_TABLES the
 * oldest is dropped and built again when next used
 */
const tables = new Map<Hex, Point>()
const MAX_TABLES = 32

export type FindRecoveryBitParameters = {
  /** the 32-byte digest that was signed */
  hash: Uint8Array
  r: bigint
  /** already low-s (EIP-2): the parity found is the one of the signature as sent */
  s: bigint
  /** the signing key's uncompressed public key (0x04 || x || y), as getKmsPublicKeyOrThrow returned it */
  publicKey: Hex
}

/**
 * The recovery id (yParity) of an ECDSA signature by a known key, found by verifying it:
 * R = (z/s)·G + (r/s)·Q; the signature is the key's exactly when R.x mod n = r, and
 * yParity is the parity of R.y. One verification, with the key's multiplication table
 * built once per process, costs about a third of one public-key recovery, where recovering
 * with 0, then 1, and hashing each key to an address takes 1.5 of those on average
 * (docs/decisions/034-round-trips-and-confirmer-runs.md). Returns undefined when the signature is not this key's
 * (or when R.x >= n, which Ethereum's recovery ids cannot express: probability ~2^-128).
 * No secret is involved, so the variable-time multiplication is safe here.
 */
export function findRecoveryBit({ hash, r, s, publicKey }: FindRecoveryBitParameters): 0 | 1 | undefined {
  if (hash.length !== 32 || r <= 0n || r >= Fn.ORDER || s <= 0n || s >= Fn.ORDER) return undefined
  const q = tableOf(publicKey)
  const z = Fn.create(hexToBigInt(bytesToHex(hash)))
  const w = Fn.inv(s)
  const R = G.multiplyUnsafe(Fn.mul(z, w)).add(q.multiplyUnsafe(Fn.mul(r, w)))
  if (R.equals(Point.ZERO)) return undefined
  const { x, y } = R.toAffine()
  if (x !== r) return undefined
  return (y & 1n) === 1n ? 1 : 0
}

function tableOf(publicKey: Hex): Point {
  const known = tables.get(publicKey)
  if (known) return known
  const point = Point.fromHex(publicKey.slice(2))
  point.precompute(WINDOW)
  if (tables.size >= MAX_TABLES) tables.delete(tables.keys().next().value ?? '0x')
  tables.set(publicKey, point)
  return point
}
