import { randomUUID } from 'node:crypto'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { KmsServiceError } from '../../errors/stack'
import { keyMetadata } from './keyMetadata'
import type { KeyStore, StoredKey } from './keyStore'
import { KEY_SPEC, type KmsRequestBody } from './kmsProtocol'
import { optionalString } from './requestFields'

export type CreateKeyParameters = { body: KmsRequestBody; region: string; accountId: string }

/**
 * CreateKey: a new secp256k1 signing key (the only spec and usage this endpoint makes), stored before it is answered.
 */
export function createKey(store: KeyStore, { body, region, accountId }: CreateKeyParameters) {
  const keySpec =
    optionalString(body, 'KeySpec') ?? optionalString(body, 'CustomerMasterKeySpec') ?? 'SYMMETRIC_DEFAULT'
  if (keySpec !== KEY_SPEC) {
    throw new KmsServiceError(
      'UnsupportedOperationException',
      `the local KMS endpoint only creates ${KEY_SPEC} keys, not ${keySpec}`,
    )
  }
  const keyUsage = optionalString(body, 'KeyUsage') ?? 'ENCRYPT_DECRYPT'
  if (keyUsage !== 'SIGN_VERIFY') {
    throw new KmsServiceError('ValidationException', `KeyUsage ${keyUsage} is not compatible with KeySpec ${KEY_SPEC}`)
  }
  const origin = optionalString(body, 'Origin') ?? 'AWS_KMS'
  if (origin !== 'AWS_KMS')
    throw new KmsServiceError('UnsupportedOperationException', `Origin ${origin} is not supported`)
  const description = optionalString(body, 'Description') ?? ''
  if (description.length > 8192)
    throw new KmsServiceError('ValidationException', 'Description is longer than 8192 characters')
  const keyId = randomUUID()
  const key: StoredKey = {
    keyId,
    arn: `arn:aws:kms:${region}:${accountId}:key/${keyId}`,
    createdAt: new Date().toISOString(),
    description,
    privateKey: Buffer.from(secp256k1.utils.randomSecretKey()).toString('hex'),
  }
  store.add(key)
  return { KeyMetadata: keyMetadata(key, { accountId }) }
}
