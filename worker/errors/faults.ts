import { WorkerError } from '@/lib/errors/jobs'

/**
 * Faults of the providers mintdesk leans on: a quota or a rate limit that says
 * "not now", never "never". Transient by nature: the caller waits and tries again later
 * WITHOUT counting a failed attempt (no dead letter, no wasted nonce). Each carries how
 * long to wait at least (the provider's hint, or our own backoff).
 */
export class TransientFaultError extends WorkerError {
  override name = 'TransientFaultError'
  constructor(
    message: string,
    /** wait at least this long before the next try */
    readonly retryAfterMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, { cause: options?.cause })
  }
}

/**
 * KMS kept answering ThrottlingException (the account's Sign quota is shared with every
 * other caller of the account and region) after the in-call retries used their time
 * budget. Nothing was signed: the order keeps its nonce and is signed again later.
 */
export class KmsThrottledError extends TransientFaultError {
  override name = 'KmsThrottledError'
  constructor(
    readonly keyId: string,
    retryAfterMs: number,
    readonly throttles: number,
    options?: { cause?: unknown },
  ) {
    super(
      `KMS key ${keyId}: Sign still throttled after ${throttles} throttled answer(s); try again in ${retryAfterMs} ms`,
      retryAfterMs,
      options,
    )
  }
}

export function isTransientFault(error: unknown): error is TransientFaultError {
  return error instanceof TransientFaultError
}
