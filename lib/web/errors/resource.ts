import { BaseError } from '@/lib/errors/BaseError'

/** Generic errors about the thing a request names. */

export class NotFoundError extends BaseError {
  override name = 'NotFoundError'
  /** `what` is a client-safe noun, e.g. "Order" or "Job". */
  constructor({ what = 'Resource' }: { what?: string } = {}) {
    super('not_found', `${what} not found.`)
  }
}

/** The request is valid but the target's current state does not allow it (e.g. retrying a finished job). */
export class ConflictError extends BaseError {
  override name = 'ConflictError'
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('conflict', message, options)
  }
}
