import { BaseError } from './BaseError'

/**
 * Errors of the worker's jobs. A job that throws is retried with graphile-worker's
 * backoff (every error is transient unless it says otherwise); a PermanentJobError goes
 * to the dead letters at once, because retrying cannot change its outcome
 * (worker/runtime/runTask.ts). Their codes map to 500: they never reach a client, the
 * admin pages show their message from the job's timeline.
 */

/**
 * The codes of the worker's errors, one per kind of failure. None reaches a client as an
 * HTTP answer (500), but they are public all the same: a failed or dead mint's webhook
 * and email say why with one of them (FAILURE_REASONS; docs/api.md lists each), never
 * with the error's message, which stays on the admin's job page. Stable: receivers switch
 * on them; add one, never rename.
 */
export const JOB_ERROR_CODES = [
  // any job
  'job_failed',
  'job_permanent_failure',
  'job_aborted',
  'invalid_payload',
  'worker_start_failed',
  // the chain (worker/errors/chain.ts)
  'mint_would_revert',
  'reverted',
  'minted_event_missing',
  'not_mined',
  'broadcast_rejected',
  'fee_too_low',
  'insufficient_funds',
  'nonce_consumed',
  'signer_unavailable',
  'sign_timeout',
  'no_base_fee',
  'stored_tx_mismatch',
  // the signing keys (worker/errors/signers.ts)
  'no_signer',
  'signer_conflict',
  'kms_sign_failed',
  'kms_key_mismatch',
  // the check before signing (lib/errors/reserves.ts)
  'bar_not_held',
  'amount_mismatch',
  'supply_exceeds_reserves',
  'recipient_not_allowed',
  'over_limit',
  'approval_missing',
  'bar_list_unverified',
] as const

export type JobErrorCode = (typeof JOB_ERROR_CODES)[number]

/**
 * Why a mint failed or went to the dead letters, as its `mint.failed` / `mint.dead_letter`
 * event says it (`reason`, and `lastError` once its attempts ran out): the code of the
 * permanent error that ended it, or `attempts_exhausted` (its last attempt's code in
 * `lastError`), `worker_lost` (a worker died during the last attempt), or `unspecified`
 * (an event recorded before reason codes, whose text is never sent). An order ended by a
 * person says `rejected` (an approver's no) or `cancelled` (an admin's cancel) in the
 * `mint.failed` event of its `rejected` or `cancelled` status.
 */
export const FAILURE_REASONS = [
  ...JOB_ERROR_CODES,
  'attempts_exhausted',
  'worker_lost',
  'rejected',
  'cancelled',
  'unspecified',
] as const

export type FailureReason = (typeof FAILURE_REASONS)[number]

export type WorkerErrorOptions = {
  cause?: unknown
  /** the stable code; 'job_failed' (a transient failure) unless a subclass says otherwise */
  code?: JobErrorCode
}

export class WorkerError extends BaseError<JobErrorCode> {
  override name = 'WorkerError'
  constructor(message: string, options: WorkerErrorOptions = {}) {
    super(options.code ?? 'job_failed', message, { cause: options.cause })
  }
}

/** Retrying cannot help (a revert in simulation, a bad payload): dead letter at once. */
export class PermanentJobError extends WorkerError {
  override name = 'PermanentJobError'
  /** a short sentence for the order's failure_reason and the admin pages (never sent outside: `code` is) */
  readonly reason: string
  constructor(reason: string, options?: WorkerErrorOptions) {
    super(reason, { cause: options?.cause, code: options?.code ?? 'job_permanent_failure' })
    this.reason = reason
  }
}

/** The payload in the queue does not match the task's schema (e.g. queued by older code). */
export class InvalidPayloadError extends PermanentJobError {
  override name = 'InvalidPayloadError'
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, { cause: options?.cause, code: 'invalid_payload' })
  }
}

/** The worker is shutting down: the job gives its slot back and is retried elsewhere. */
export class JobAbortedError extends WorkerError {
  override name = 'JobAbortedError'
  constructor(step: string) {
    super(`aborted by worker shutdown before ${step}`, { code: 'job_aborted' })
  }
}

export function isPermanentJobError(error: unknown): error is PermanentJobError {
  return error instanceof PermanentJobError
}

/** The worker process cannot start (configuration, chain, signers). */
export class WorkerStartError extends WorkerError {
  override name = 'WorkerStartError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause, code: 'worker_start_failed' })
  }
}
