import { findKey } from './findKey'
import type { KeyStore } from './keyStore'
import { KEY_SPEC, type KmsRequestBody, SIGNING_ALGORITHM } from './kmsProtocol'
import { spkiDer } from './spkiDer'

/** GetPublicKey: the key's DER SubjectPublicKeyInfo, base64, as real KMS sends it. */
export function getPublicKey(store: KeyStore, { body }: { body: KmsRequestBody }) {
  const key = findKey(store, body)
  return {
    KeyId: key.arn,
    PublicKey: spkiDer(key).toString('base64'),
    CustomerMasterKeySpec: KEY_SPEC,
    KeySpec: KEY_SPEC,
    KeyUsage: 'SIGN_VERIFY',
    SigningAlgorithms: [SIGNING_ALGORITHM],
  }
}
