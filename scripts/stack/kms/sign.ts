import { createHash } from 'node:crypto'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { KmsServiceError } from '../../errors/stack'
import { findKey } from './findKey'
import type { KeyStore } from './keyStore'
import { type KmsRequestBody, SIGNING_ALGORITHM } from './kmsProtocol'
import { optionalString, requireBlob, requireString } from './requestFields'

const MAX_RAW_MESSAGE_BYTES = 4096

/**
 * Sign: a DER ECDSA signature of a 32-byte digest (MessageType DIGEST) or of the
 * SHA-256 of a raw message. Like real KMS it does NOT normalise s: about half of the
 * signatures are high-s, which the signer (worker/signer) must fix.
 */
export function sign(store: KeyStore, { body }: { body: KmsRequestBody }) {
  const key = findKey(store, body)
  const algorithm = requireString(body, 'SigningAlgorithm', 64)
  if (algorithm !== SIGNING_ALGORITHM) {
    throw new KmsServiceError(
      'InvalidKeyUsageException',
      `SigningAlgorithm ${algorithm} is not supported by key ${key.arn}, only ${SIGNING_ALGORITHM}`,
    )
  }
  const message = requireBlob(body, 'Message')
  const messageType = optionalString(body, 'MessageType') ?? 'RAW'
  let digest: Uint8Array
  if (messageType === 'DIGEST') {
    if (message.length !== 32) {
      throw new KmsServiceError(
        'ValidationException',
        `Digest is invalid length for algorithm ${SIGNING_ALGORITHM}: ${message.length} bytes, expected 32`,
      )
    }
    digest = message
  } else if (messageType === 'RAW') {
    if (message.length < 1 || message.length > MAX_RAW_MESSAGE_BYTES) {
      throw new KmsServiceError('ValidationException', `Message must be 1 to ${MAX_RAW_MESSAGE_BYTES} bytes`)
    }
    digest = createHash('sha256').update(message).digest()
  } else {
    throw new KmsServiceError('ValidationException', `MessageType ${messageType} is not RAW or DIGEST`)
  }
  // no low-s normalisation, and fresh randomness each time, as real KMS: a high s
  // comes back about half of the time
  const signature = secp256k1.sign(digest, Buffer.from(key.privateKey, 'hex'), {
    prehash: false,
    lowS: false,
    format: 'der',
    extraEntropy: true,
  })
  return { KeyId: key.arn, Signature: Buffer.from(signature).toString('base64'), SigningAlgorithm: SIGNING_ALGORITHM }
}
