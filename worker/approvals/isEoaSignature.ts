import { type Address, type Hex, hexToBigInt, hexToBytes, isAddressEqual, recoverPublicKey, size } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import { findRecoveryBit } from '../signer/findRecoveryBit'
import { SECP256K1_HALF_N } from '../signer/normalizeS'

export type IsEoaSignatureParameters = {
  /** the EIP-712 digest that was signed (hashTypedData) */
  digest: Hex
  /** r || s || v, 65 bytes */
  signature: Hex
  /** the key the signature claims to be from */
  signer: Address
}

/** lower-case address -> its uncompressed public key, learnt from the signer's first valid signature */
const keys = new Map<string, Hex>()
/** approvers and custodians are a handful of keys (each table ~0.7 MB); past this the oldest is forgotten */
const MAX_KEYS = 16

/**
 * Whether `signature` is the EOA `signer`'s signature of `digest`, as GoldMinter's ECDSA check
 * takes it (OpenZeppelin: 65 bytes, v 27 or 28, low s; a signature the contract would refuse
 * is refused here). A signer's first signature in this process is recovered and its public key
 * kept once it hashes to the signer's address; every later one is verified against that key
 * with its cached multiplication table (findRecoveryBit, about a third of a recovery's cost),
 * and its v must be the parity the verification gives.
 */
export async function isEoaSignature(p: IsEoaSignatureParameters): Promise<boolean> {
  if (size(p.signature) !== 65) return false
  const r = hexToBigInt(`0x${p.signature.slice(2, 66)}`)
  const s = hexToBigInt(`0x${p.signature.slice(66, 130)}`)
  const v = Number.parseInt(p.signature.slice(130, 132), 16)
  if ((v !== 27 && v !== 28) || s > SECP256K1_HALF_N) return false
  const known = keys.get(p.signer.toLowerCase())
  if (known) return findRecoveryBit({ hash: hexToBytes(p.digest), r, s, publicKey: known }) === v - 27
  const publicKey = await recoverPublicKey({ hash: p.digest, signature: p.signature }).catch(() => undefined)
  if (!publicKey || !isAddressEqual(publicKeyToAddress(publicKey), p.signer)) return false
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value ?? '')
  keys.set(p.signer.toLowerCase(), publicKey)
  return true
}
