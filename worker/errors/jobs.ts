/**
 * Errors of the worker's jobs. A job that throws is retried with graphile-worker's
 * backoff (every error is transient unless it says otherwise); a PermanentJobError goes
 * to the dead letters at once, because retrying cannot change its outcome.
 */

export class WorkerError extends Error {
  override name = 'WorkerError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** Retrying cannot help (a revert in simulation, a bad payload): dead letter at once. */
export class PermanentJobError extends WorkerError {
  override name = 'PermanentJobError'
  /** a short sentence for the order's failure_reason and the admin pages */
  readonly reason: string
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options)
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
}
