import type { KMSClient } from '@aws-sdk/client-kms'
import type { Address } from 'viem'
import { getKmsPublicKey } from './getKmsPublicKey'
import { publicKeyToAddress } from './publicKeyToAddress'

export type GetKmsAddressParameters = { keyId: string }
export type GetKmsAddressReturnType = Address

/** The checksummed Ethereum address of a secp256k1 KMS key, from its public key. */
export async function getKmsAddress(
  client: KMSClient,
  { keyId }: GetKmsAddressParameters,
): Promise<GetKmsAddressReturnType> {
  return publicKeyToAddress(await getKmsPublicKey(client, { keyId }))
}
