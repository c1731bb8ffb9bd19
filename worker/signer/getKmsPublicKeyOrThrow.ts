import { GetPublicKeyCommand, type KMSClient } from '@aws-sdk/client-kms'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, type Hex } from 'viem'
import { DerParseError, KmsPublicKeyError } from '@/worker/errors/kms'
import { parseSubjectPublicKeyInfo, type SubjectPublicKeyInfo } from './der'

/** id-ecPublicKey (RFC 5480) */
export const EC_PUBLIC_KEY_OID = '1.2.840.10045.2.1'
/** secp256k1 (SEC 2), KMS key spec ECC_SECG_P256K1 */
export const SECP256K1_OID = '1.3.132.0.10'

export type GetKmsPublicKeyOrThrowParameters = { keyId: string }

/** The uncompressed public key, 65 bytes: 0x04 || x || y. */
export type GetKmsPublicKeyOrThrowReturnType = Hex

/**
 * Fetches a KMS key's public key (GetPublicKey) and checks it is a secp256k1 key: the
 * DER SubjectPublicKeyInfo must name id-ecPublicKey with curve secp256k1 and hold a
 * valid uncompressed curve point. SDK errors (NotFoundException, ...) pass through.
 */
export async function getKmsPublicKeyOrThrow(
  client: KMSClient,
  { keyId }: GetKmsPublicKeyOrThrowParameters,
): Promise<GetKmsPublicKeyOrThrowReturnType> {
  const res = await client.send(new GetPublicKeyCommand({ KeyId: keyId }))
  if (res.KeySpec !== undefined && res.KeySpec !== 'ECC_SECG_P256K1') {
    throw new KmsPublicKeyError(keyId, `key spec is ${res.KeySpec}, expected ECC_SECG_P256K1`)
  }
  if (res.KeyUsage !== undefined && res.KeyUsage !== 'SIGN_VERIFY') {
    throw new KmsPublicKeyError(keyId, `key usage is ${res.KeyUsage}, expected SIGN_VERIFY`)
  }
  if (!res.PublicKey) throw new KmsPublicKeyError(keyId, 'GetPublicKey returned no PublicKey')
  return parseSecp256k1PublicKey(res.PublicKey, { keyId })
}

/**
 * The checks behind getKmsPublicKeyOrThrow, on the DER bytes alone (exported for its unit
 * tests and for public keys that arrive some other way, e.g. from `aws kms get-public-key`).
 */
export function parseSecp256k1PublicKey(der: Uint8Array, { keyId }: { keyId: string }): Hex {
  let spki: SubjectPublicKeyInfo
  try {
    spki = parseSubjectPublicKeyInfo(der)
  } catch (err) {
    if (err instanceof DerParseError)
      throw new KmsPublicKeyError(keyId, 'public key is not a valid SubjectPublicKeyInfo', { cause: err })
    throw err
  }
  if (spki.algorithm !== EC_PUBLIC_KEY_OID)
    throw new KmsPublicKeyError(keyId, `public key algorithm ${spki.algorithm} is not id-ecPublicKey`)
  if (spki.parameters !== SECP256K1_OID)
    throw new KmsPublicKeyError(keyId, `curve ${spki.parameters ?? '(none)'} is not secp256k1 (${SECP256K1_OID})`)
  const key = spki.publicKey
  if (key.length !== 65 || key[0] !== 0x04)
    throw new KmsPublicKeyError(keyId, `public key is not a 65-byte uncompressed point`)
  try {
    secp256k1.Point.fromBytes(key).assertValidity()
  } catch (err) {
    throw new KmsPublicKeyError(keyId, 'public key is not a point on secp256k1', { cause: err })
  }
  return bytesToHex(key)
}
