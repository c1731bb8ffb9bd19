import type { KMSClient } from '@aws-sdk/client-kms'
import {
  type Address,
  type Hex,
  hashMessage,
  hashTypedData,
  isAddressEqual,
  keccak256,
  type LocalAccount,
  serializeSignature,
  serializeTransaction,
} from 'viem'
import { toAccount } from 'viem/accounts'
import { KmsAddressMismatchError } from '@/worker/errors/signers'
import { getKmsPublicKeyOrThrow } from '@/worker/signer/getKmsPublicKeyOrThrow'
import { publicKeyToAddress } from '@/worker/signer/publicKeyToAddress'
import type { KmsSignPolicy } from './sendSignWithRetry'
import { signDigestWithKms } from './signDigestWithKms'

export type CreateKmsAccountParameters = {
  keyId: string
  /** when given (e.g. from the signers table), the key's derived address must equal it */
  expectedAddress?: Address | undefined
  /** the process's KMS budget and throttle retries, for every signature of this account */
  policy?: KmsSignPolicy | undefined
}

export type CreateKmsAccountReturnType = LocalAccount<'custom'>

/**
 * A viem account whose private key never leaves KMS: the address comes from the key's
 * DER public key, and every signature (transactions, EIP-191 messages, EIP-712 typed
 * data) is a KMS Sign of the 32-byte hash, made low-s with its recovery id found by
 * signDigestWithKms. Only the worker signs; the web process never imports this.
 */
export async function createKmsAccount(
  client: KMSClient,
  { keyId, expectedAddress, policy }: CreateKmsAccountParameters,
): Promise<CreateKmsAccountReturnType> {
  const publicKey = await getKmsPublicKeyOrThrow(client, { keyId })
  const address = publicKeyToAddress(publicKey)
  if (expectedAddress && !isAddressEqual(expectedAddress, address))
    throw new KmsAddressMismatchError(keyId, expectedAddress, address)

  const sign = async ({ hash }: { hash: Hex }): Promise<Hex> =>
    serializeSignature(await signDigestWithKms(client, { keyId, digest: hash, publicKey, policy }))

  const account = toAccount({
    address,
    sign,
    async signMessage({ message }) {
      return sign({ hash: hashMessage(message) })
    },
    async signTypedData(typedData) {
      return sign({ hash: hashTypedData(typedData) })
    },
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction
      // as viem's own signTransaction: an EIP-4844 transaction is signed without its sidecars
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction
      const signature = await signDigestWithKms(client, {
        keyId,
        digest: keccak256(await serializer(signable)),
        publicKey,
        policy,
      })
      return serializer(transaction, signature)
    },
  })
  return { ...account, publicKey, source: 'custom' }
}
