import type { Address } from 'viem'
import { PermanentJobError, WorkerError } from '@/lib/errors/jobs'

/** Errors about the signing keys (KMS) and their rows. */

export class NoSignerError extends WorkerError {
  override name = 'NoSignerError'
  constructor(chainId: number) {
    super(`no active signer on chain ${chainId} among this worker's KMS keys`, { code: 'no_signer' })
  }
}

/** A signers row that does not match the KMS key or chain this worker was given. */
export class SignerConflictError extends WorkerError {
  override name = 'SignerConflictError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause, code: 'signer_conflict' })
  }
}

/** KMS answered, but not with a usable signature (transient: the job retries). */
export class KmsSignError extends WorkerError {
  override name = 'KmsSignError'
  constructor(
    readonly keyId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`KMS key ${keyId}: ${message}`, { cause: options?.cause, code: 'kms_sign_failed' })
  }
}

/**
 * Neither recovery id gives back the expected address: the key id and the signer's
 * address do not belong together. Retrying cannot fix that configuration: permanent.
 */
export class KmsSignatureRecoveryError extends PermanentJobError {
  override name = 'KmsSignatureRecoveryError'
  constructor(
    readonly keyId: string,
    readonly address: Address,
  ) {
    super(`KMS key ${keyId}: the signature recovers to neither yParity 0 nor 1 for address ${address}`, {
      code: 'kms_key_mismatch',
    })
  }
}

/** The key's address is not the one configured for it (signers table): permanent. */
export class KmsAddressMismatchError extends PermanentJobError {
  override name = 'KmsAddressMismatchError'
  constructor(
    readonly keyId: string,
    readonly expected: Address,
    readonly actual: Address,
  ) {
    super(`KMS key ${keyId} has address ${actual}, expected ${expected}`, { code: 'kms_key_mismatch' })
  }
}
