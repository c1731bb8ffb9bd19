import type { KMSClient } from '@aws-sdk/client-kms'
import type { Address } from 'viem'
import { getKmsPublicKey } from '../../worker/signer/getKmsPublicKey'
import { publicKeyToAddress } from '../../worker/signer/publicKeyToAddress'

export type GetKmsAddressParameters = { keyId: string }
export type GetKmsAddressReturnType = Address

/** The checksummed Ethereum address of a secp256k1 KMS key, from its public key. */
export async function getKmsAddress(
  client: KMSClient,
  { keyId }: GetKmsAddressParameters,
): Promise<GetKmsAddressReturnType> {
  return publicKeyToAddress(await getKmsPublicKey(client, { keyId }))
}
