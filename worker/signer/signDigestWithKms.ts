import { type KMSClient, SignCommand } from '@aws-sdk/client-kms'
import { type Hex, hexToBytes, numberToHex } from 'viem'
import { DerParseError } from '@/worker/errors/kms'
import { KmsSignatureRecoveryError, KmsSignError } from '@/worker/errors/signers'
import { publicKeyToAddress } from '@/worker/signer/publicKeyToAddress'
import { findRecoveryBit } from './findRecoveryBit'
import { normalizeS } from './normalizeS'
import { type ParseDerSignatureReturnType, parseDerSignature } from './parseDerSignature'
import { type KmsSignPolicy, sendSignWithRetry } from './sendSignWithRetry'

export type SignDigestWithKmsParameters = {
  keyId: string
  /** the 32-byte hash to sign (keccak256 of the payload for Ethereum) */
  digest: Hex | Uint8Array
  /**
   * the key's uncompressed public key, as getKmsPublicKeyOrThrow returned it: the signature is
   * verified against it and its recovery id found
   */
  publicKey: Hex
  /** the process's KMS budget and throttle retries (the worker's); without it, one plain Sign */
  policy?: KmsSignPolicy | undefined
}

/** A signature ready for viem (`serializeTransaction(tx, signature)`), always low-s. */
export type SignDigestWithKmsReturnType = { r: Hex; s: Hex; yParity: 0 | 1 }

/**
 * Signs a 32-byte digest with a KMS secp256k1 key (Sign, MessageType DIGEST,
 * ECDSA_SHA_256), then turns KMS's DER answer into an Ethereum signature: s is made
 * low (EIP-2) and the recovery id (yParity), which KMS does not return, is found by
 * verifying the signature against the key's public key (findRecoveryBit): a signature
 * that is not the key's is refused (KmsSignatureRecoveryError).
 * With a policy, the Sign waits for the rate limiter and retries throttles
 * (sendSignWithRetry; still throttled: KmsThrottledError); other SDK errors pass through.
 */
export async function signDigestWithKms(
  client: KMSClient,
  { keyId, digest, publicKey, policy }: SignDigestWithKmsParameters,
): Promise<SignDigestWithKmsReturnType> {
  const hash = typeof digest === 'string' ? hexToBytes(digest) : digest
  if (hash.length !== 32) throw new KmsSignError(keyId, `digest must be 32 bytes, got ${hash.length}`)

  const input = { KeyId: keyId, Message: hash, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' } as const
  const res = policy ? await sendSignWithRetry(client, input, policy) : await client.send(new SignCommand(input))
  if (!res.Signature) throw new KmsSignError(keyId, 'Sign returned no Signature')

  let parsed: ParseDerSignatureReturnType
  try {
    parsed = parseDerSignature(res.Signature)
  } catch (err) {
    if (err instanceof DerParseError)
      throw new KmsSignError(keyId, 'Sign returned a malformed DER signature', { cause: err })
    throw err
  }
  const { r, s } = normalizeS(parsed)

  const yParity = findRecoveryBit({ hash, r, s, publicKey })
  if (yParity === undefined) throw new KmsSignatureRecoveryError(keyId, publicKeyToAddress(publicKey))
  return { r: numberToHex(r, { size: 32 }), s: numberToHex(s, { size: 32 }), yParity }
}
