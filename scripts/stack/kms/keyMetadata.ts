import type { StoredKey } from './keyStore'
import { KEY_SPEC, SIGNING_ALGORITHM } from './kmsProtocol'

/** A key's KeyMetadata, as CreateKey and DescribeKey answer it. */
export function keyMetadata(key: StoredKey, { accountId }: { accountId: string }) {
  return {
    AWSAccountId: accountId,
    KeyId: key.keyId,
    Arn: key.arn,
    CreationDate: Math.floor(Date.parse(key.createdAt) / 1000),
    Enabled: true,
    Description: key.description,
    KeyUsage: 'SIGN_VERIFY',
    KeyState: 'Enabled',
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: KEY_SPEC,
    KeySpec: KEY_SPEC,
    SigningAlgorithms: [SIGNING_ALGORITHM],
    MultiRegion: false,
  }
}
