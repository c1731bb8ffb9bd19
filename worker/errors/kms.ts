import { BaseError } from '@/lib/errors/BaseError'

/** Errors of reading a KMS key (worker/signer): all internal (500), their details stay in the server log. */

/** Not a 65-byte uncompressed secp256k1 public key (0x04 || x || y). */
export class InvalidPublicKeyError extends BaseError<'invalid_public_key'> {
  override name = 'InvalidPublicKeyError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_public_key', message, options)
  }
}

/** Bytes that are not the strict DER worker/signer/der.ts accepts (never a best guess). */
export class DerParseError extends BaseError<'der_parse_failed'> {
  override name = 'DerParseError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('der_parse_failed', `malformed DER: ${message}`, options)
  }
}

/** The key is not a usable secp256k1 signing key (or its public key is malformed). */
export class KmsPublicKeyError extends BaseError<'kms_public_key_invalid'> {
  override name = 'KmsPublicKeyError'
  readonly keyId: string

  constructor(keyId: string, message: string, options?: { cause?: unknown }) {
    super('kms_public_key_invalid', `KMS key ${keyId}: ${message}`, options)
    this.keyId = keyId
  }
}
