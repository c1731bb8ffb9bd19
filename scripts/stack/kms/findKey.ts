import { KmsServiceError } from '../../errors/stack'
import type { KeyStore, StoredKey } from './keyStore'
import type { KmsRequestBody } from './kmsProtocol'
import { requireString } from './requestFields'

/** The request's KeyId (a key id or its ARN; aliases are not kept here), or KMS's NotFoundException. */
export function findKey(store: KeyStore, body: KmsRequestBody): StoredKey {
  const keyId = requireString(body, 'KeyId', 2048)
  if (keyId.startsWith('alias/') || keyId.includes(':alias/')) {
    throw new KmsServiceError('NotFoundException', `Alias ${keyId} is not found.`)
  }
  const id = keyId.startsWith('arn:') ? keyId.slice(keyId.lastIndexOf('/') + 1) : keyId
  const key = store.get(id)
  if (!key || (keyId.startsWith('arn:') && keyId !== key.arn)) {
    throw new KmsServiceError('NotFoundException', `Key '${keyId}' does not exist`)
  }
  return key
}
