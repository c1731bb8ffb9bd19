import { type KMSClient, SignCommand } from '@aws-sdk/client-kms'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { type Address, type Hex, hexToBytes, isAddressEqual, numberToHex } from 'viem'
import { DerParseError } from '@/lib/errors/kms'
import { KmsSignatureRecoveryError, KmsSignError } from '@/lib/errors/signers'
import { publicKeyToAddress } from '@/lib/kms/publicKeyToAddress'
import { normalizeS } from './normalizeS'
import { parseDerSignature } from './parseDerSignature'
import { type KmsSignPolicy, sendSignWithRetry } from './sendSignWithRetry'

export type SignDigestWithKmsParameters = {
  keyId: string
  /** the 32-byte hash to sign (keccak256 of the payload for Ethereum) */
  digest: Hex | Uint8Array
  /** the key's address, as getKmsAddress derived it: used to find the recovery id */
  address: Address
  /** the process's KMS budget and throttle retries (the worker's); without it, one plain Sign */
  policy?: KmsSignPolicy | undefined
}

/** A signature ready for viem (`serializeTransaction(tx, signature)`), always low-s. */
export type SignDigestWithKmsReturnType = { r: Hex; s: Hex; yParity: 0 | 1 }

/**
 * Signs a 32-byte digest with a KMS secp256k1 key (Sign, MessageType DIGEST,
 * ECDSA_SHA_256), then turns KMS's DER answer into an Ethereum signature: s is made
 * low (EIP-2) and the recovery id (yParity), which KMS does not return, is found by
 * recovering the public key with 0 and with 1 and comparing with `address`.
 * With a policy, the Sign waits for the rate limiter and retries throttles
 * (sendSignWithRetry; still throttled: KmsThrottledError); other SDK errors pass through.
 */
export async function signDigestWithKms(
  client: KMSClient,
  { keyId, digest, address, policy }: SignDigestWithKmsParameters,
): Promise<SignDigestWithKmsReturnType> {
  const hash = typeof digest === 'string' ? hexToBytes(digest) : digest
  if (hash.length !== 32) throw new KmsSignError(keyId, `digest must be 32 bytes, got ${hash.length}`)

  const input = { KeyId: keyId, Message: hash, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' } as const
  const res = policy ? await sendSignWithRetry(client, input, policy) : await client.send(new SignCommand(input))
  if (!res.Signature) throw new KmsSignError(keyId, 'Sign returned no Signature')

  let parsed
  try {
    parsed = parseDerSignature(res.Signature)
  } catch (err) {
    if (err instanceof DerParseError) throw new KmsSignError(keyId, 'Sign returned a malformed DER signature', { cause: err })
    throw err
  }
  const { r, s } = normalizeS(parsed)

  for (const yParity of [0, 1] as const) {
    if (recovers({ r, s, yParity, hash, address })) {
      return { r: numberToHex(r, { size: 32 }), s: numberToHex(s, { size: 32 }), yParity }
    }
  }
  throw new KmsSignatureRecoveryError(keyId, address)
}

function recovers({ r, s, yParity, hash, address }: { r: bigint; s: bigint; yParity: 0 | 1; hash: Uint8Array; address: Address }): boolean {
  try {
    const point = new secp256k1.Signature(r, s).addRecoveryBit(yParity).recoverPublicKey(hash)
    return isAddressEqual(publicKeyToAddress(point.toBytes(false)), address)
  } catch {
    // no point for this recovery id (x = r is not on the curve for it): not a match
    return false
  }
}
