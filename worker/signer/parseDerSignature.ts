import { secp256k1 } from '@noble/curves/secp256k1.js'
import { DerParseError } from '@/worker/errors/kms'
import { DerTag, derUnsignedInteger, parseDerChildren, parseDerOnly } from '@/worker/signer/der'

export type ParseDerSignatureReturnType = { r: bigint; s: bigint }

const N = secp256k1.Point.CURVE().n

/**
 * Parses a DER ECDSA-Sig-Value, `SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279), as KMS
 * Sign returns it. Strict: exactly one SEQUENCE of exactly two minimally encoded,
 * positive INTEGERs, no trailing bytes, and 0 < r, s < n (the secp256k1 order).
 * Throws DerParseError otherwise. s is returned as is: see normalizeS.
 */
export function parseDerSignature(der: Uint8Array): ParseDerSignatureReturnType {
  const seq = parseDerOnly(der, DerTag.sequence, 'ECDSA signature')
  const parts = parseDerChildren(seq.content)
  if (parts.length !== 2) throw new DerParseError(`ECDSA signature has ${parts.length} parts, expected 2`)
  const [rEl, sEl] = parts
  if (rEl.tag !== DerTag.integer || sEl.tag !== DerTag.integer)
    throw new DerParseError('ECDSA signature parts are not INTEGERs')
  if (rEl.content.length > 33 || sEl.content.length > 33)
    throw new DerParseError('ECDSA signature INTEGER longer than 33 bytes')
  const r = derUnsignedInteger(rEl.content, 'r')
  const s = derUnsignedInteger(sEl.content, 's')
  if (r <= 0n || r >= N) throw new DerParseError('r is out of range [1, n-1]')
  if (s <= 0n || s >= N) throw new DerParseError('s is out of range [1, n-1]')
  return { r, s }
}
