import { createKey } from './createKey'
import { findKey } from './findKey'
import { getPublicKey } from './getPublicKey'
import { keyMetadata } from './keyMetadata'
import type { KeyStore } from './keyStore'
import type { KmsRequestBody } from './kmsProtocol'
import { listKeys } from './listKeys'
import { sign } from './sign'

export type KmsOperation = (body: KmsRequestBody) => unknown

export type KmsOperationsParameters = {
  /** the region and account that appear in key ARNs */
  region: string
  accountId: string
}

/** The operations the endpoint answers, by their X-Amz-Target name (`TrentService.<name>`). */
export function kmsOperations(
  store: KeyStore,
  { region, accountId }: KmsOperationsParameters,
): Record<string, KmsOperation> {
  return {
    CreateKey: (body) => createKey(store, { body, region, accountId }),
    DescribeKey: (body) => ({ KeyMetadata: keyMetadata(findKey(store, body), { accountId }) }),
    GetPublicKey: (body) => getPublicKey(store, { body }),
    Sign: (body) => sign(store, { body }),
    ListKeys: (body) => listKeys(store, { body }),
  }
}
