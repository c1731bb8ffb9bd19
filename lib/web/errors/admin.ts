import { BaseError } from '@/lib/errors/BaseError'

/**
 * Errors of the admin console. Retry and cancel of jobs are 409s: the request is
 * valid, the job's or order's current state does not allow it. Each has its own stable
 * code (`job_running`, `job_not_retryable`, `job_not_cancellable`, `order_confirmed`),
 * mapped to 409 in `lib/errors/http.ts`. `chain_timeout` is internal (500).
 */

/** A worker holds the job right now (graphile-worker `locked_at` set): it cannot be retried or cancelled. */
export class JobRunningError extends BaseError {
  override name = 'JobRunningError'
  readonly jobId: string
  constructor({ jobId, message }: { jobId: string; message?: string }) {
    super(
      'job_running',
      message ?? `Job ${jobId} is running on a worker right now; wait until it finishes or fails, then try again.`,
    )
    this.jobId = jobId
  }
}

/** Only a dead or retrying job can be retried. */
export class JobNotRetryableError extends BaseError {
  override name = 'JobNotRetryableError'
  readonly jobId: string
  readonly state: string
  constructor({ jobId, state }: { jobId: string; state: string }) {
    super('job_not_retryable', `Job ${jobId} is ${state}; only a dead or retrying job can be retried.`)
    this.jobId = jobId
    this.state = state
  }
}

/** A finished (done or cancelled) job cannot be cancelled. */
export class JobNotCancellableError extends BaseError {
  override name = 'JobNotCancellableError'
  readonly jobId: string
  readonly state: string
  constructor({ jobId, state, message }: { jobId: string; state: string; message?: string }) {
    super('job_not_cancellable', message ?? `Job ${jobId} is ${state}; there is nothing left to cancel.`)
    this.jobId = jobId
    this.state = state
  }
}

/** The job's order is confirmed, or its transaction is already mined: cancelling it would lie about the chain. */
export class OrderConfirmedError extends BaseError {
  override name = 'OrderConfirmedError'
  readonly orderId: string
  constructor({ orderId, mined = false }: { orderId: string; mined?: boolean }) {
    super(
      'order_confirmed',
      mined
        ? `Order ${orderId}'s mint transaction is already mined; it cannot be cancelled. Retry it so it gets confirmed.`
        : `Order ${orderId} is confirmed on chain; it cannot be cancelled.`,
    )
    this.orderId = orderId
  }
}

/** The chain RPC gave no answer in time while the system status read it; the status reports the chain unavailable. */
export class ChainTimeoutError extends BaseError<'chain_timeout'> {
  override name = 'ChainTimeoutError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('chain_timeout', message, options)
  }
}
