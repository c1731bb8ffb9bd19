import type { KMSClient } from '@aws-sdk/client-kms'
import type { Address } from 'viem'
import { getKmsPublicKeyOrThrow } from '../../worker/signer/getKmsPublicKeyOrThrow'
import { publicKeyToAddress } from '../../worker/signer/publicKeyToAddress'

export type GetKmsAddressOrThrowParameters = { keyId: string }
export type GetKmsAddressOrThrowReturnType = Address

/** The checksummed Ethereum address of a secp256k1 KMS key, from its public key. */
export async function getKmsAddressOrThrow(
  client: KMSClient,
  { keyId }: GetKmsAddressOrThrowParameters,
): Promise<GetKmsAddressOrThrowReturnType> {
  return publicKeyToAddress(await getKmsPublicKeyOrThrow(client, { keyId }))
}
