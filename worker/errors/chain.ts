import { PermanentJobError, WorkerError, type WorkerErrorOptions } from '@/lib/errors/jobs'

/**
 * Chain-side failures of the worker's jobs: transient (WorkerError) unless retrying cannot help (PermanentJobError).
 */

/** The mint reverts when simulated: sending it would only burn gas. */
export class MintRevertedError extends PermanentJobError {
  override name = 'MintRevertedError'
  constructor(
    reason: string,
    readonly errorName: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`mint reverts: ${reason}`, { cause: options?.cause, code: 'mint_would_revert' })
  }
}

/** A mined mint of ours reverted on chain (e.g. the recipient was frozen in between). */
export class MintTxRevertedError extends PermanentJobError {
  override name = 'MintTxRevertedError'
  constructor(
    readonly hash: string,
    reason: string,
  ) {
    super(`mint transaction ${hash} reverted: ${reason}`, { code: 'reverted' })
  }
}

/** A receipt says success but holds no Minted event for the order: never confirm that. */
export class MintedEventMissingError extends PermanentJobError {
  override name = 'MintedEventMissingError'
  constructor(readonly hash: string) {
    super(`transaction ${hash} succeeded but emitted no Minted event for this order`, { code: 'minted_event_missing' })
  }
}

/**
 * A mint still not mined after the most replacements we pay for: no further fee bump;
 * it becomes the order's own dead letter (the order stays submitted), which an admin
 * sees and cancels (the nonce is then filled at a higher fee) or retries.
 */
export class MintNotMinedError extends PermanentJobError {
  override name = 'MintNotMinedError'
  constructor(
    readonly hash: string,
    readonly replacements: number,
  ) {
    super(
      `transaction ${hash} is still not mined after ${replacements} replacements; cancel the order to fill its nonce, or retry`,
      { code: 'not_mined' },
    )
  }
}

/** The node refused the transaction (transient: retried, then dead letter). */
export class BroadcastRejectedError extends WorkerError {
  override name = 'BroadcastRejectedError'
  constructor(
    readonly hash: string,
    readonly details: string,
    options?: WorkerErrorOptions,
  ) {
    super(`node rejected ${hash}: ${details}`, { cause: options?.cause, code: options?.code ?? 'broadcast_rejected' })
  }
}

/**
 * The node refused the transaction for its fees (fee cap below the base fee, or below
 * the pool's minimum): the same bytes will not be taken until fees fall, so
 * order_confirm replaces it with higher fees at the same nonce.
 */
export class FeeTooLowError extends BroadcastRejectedError {
  override name = 'FeeTooLowError'
  constructor(hash: string, details: string, options?: { cause?: unknown }) {
    super(hash, details, { cause: options?.cause, code: 'fee_too_low' })
  }
}

/** The signer cannot pay for gas: retried (an operator tops it up), then dead letter. */
export class InsufficientFundsError extends BroadcastRejectedError {
  override name = 'InsufficientFundsError'
  constructor(hash: string, details: string, options?: { cause?: unknown }) {
    super(hash, details, { cause: options?.cause, code: 'insufficient_funds' })
  }
}

/**
 * The chain's nonce moved past ours, but none of our transactions at that nonce is
 * known: something mintdesk did not sign used the key (or a reorg is in progress).
 * Transient, so a reorg can settle; it lands in the dead letters if it persists.
 */
export class NonceConsumedError extends WorkerError {
  override name = 'NonceConsumedError'
  constructor(
    readonly signer: string,
    readonly nonce: bigint,
  ) {
    super(`nonce ${nonce} of signer ${signer} was used by a transaction mintdesk did not sign`, {
      code: 'nonce_consumed',
    })
  }
}

/** No KMS key of this worker belongs to the signer bound to the order. */
export class SignerUnavailableError extends WorkerError {
  override name = 'SignerUnavailableError'
  constructor(readonly signer: string) {
    super(`this worker holds no KMS key for signer ${signer}`, { code: 'signer_unavailable' })
  }
}

/** KMS took too long to sign: the transaction holding the nonce rolls back. */
export class SignTimeoutError extends WorkerError {
  override name = 'SignTimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`KMS did not sign within ${timeoutMs} ms`, { code: 'sign_timeout' })
  }
}

/** The chain has no EIP-1559 base fee: mintdesk sends EIP-1559 transactions only. */
export class NoBaseFeeError extends WorkerError {
  override name = 'NoBaseFeeError'
  constructor() {
    super('the latest block has no base fee: mintdesk sends EIP-1559 transactions only', { code: 'no_base_fee' })
  }
}

/**
 * A stored signed transaction is not what the worker would sign for its order now: not
 * signed by one of our signers, not to the token, or not exactly mint(to, amount of its
 * bars, orderId) (invariant 7: the worker never trusts stored bytes it did not verify; a
 * row changed in the database). Permanent: nothing is sent or re-signed from it.
 */
export class StoredTxMismatchError extends PermanentJobError {
  override name = 'StoredTxMismatchError'
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`stored transaction does not match its order: ${detail}`, {
      cause: options?.cause,
      code: 'stored_tx_mismatch',
    })
  }
}
