import { BaseError } from './BaseError'

/**
 * Errors of the worker's jobs. A job that throws is retried with graphile-worker's
 * backoff (every error is transient unless it says otherwise); a PermanentJobError goes
 * to the dead letters at once, because retrying cannot change its outcome
 * (worker/runtime/runTask.ts). Their codes map to 500: they never reach a client, the
 * admin pages show their message from the job's timeline.
 */

/** The codes of the worker's errors: none reaches a client (500). */
export type JobErrorCode = 'job_failed' | 'job_permanent_failure' | 'worker_start_failed'

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
  /** a short sentence for the order's failure_reason and the admin pages */
  readonly reason: string
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, { cause: options?.cause, code: 'job_permanent_failure' })
    this.reason = reason
  }
}

/** The payload in the queue does not match the task's schema (e.g. queued by older code). */
export class InvalidPayloadError extends PermanentJobError {
  override name = 'InvalidPayloadError'
}

/** The worker is shutting down: the job gives its slot back and is retried elsewhere. */
export class JobAbortedError extends WorkerError {
  override name = 'JobAbortedError'
  constructor(step: string) {
    super(`aborted by worker shutdown before ${step}`)
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
