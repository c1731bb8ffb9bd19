import { createPublicKey } from 'node:crypto'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { StoredKey } from './keyStore'

/** The DER SubjectPublicKeyInfo, encoded by node's OpenSSL rather than by our own code. */
export function spkiDer(key: Pick<StoredKey, 'privateKey'>): Buffer {
  const point = secp256k1.getPublicKey(Buffer.from(key.privateKey, 'hex'), false)
  const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url')
  return createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  }).export({ type: 'spki', format: 'der' })
}
