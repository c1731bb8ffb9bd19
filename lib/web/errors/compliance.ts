import { BaseError } from '@/lib/errors/BaseError'

/**
 * Errors of the compliance operations a second person signs (lib/web/compliance/). Codes in `lib/errors/http.ts`:
 * self_approval 403, not_awaiting_approval 409.
 */

/** The admin who asked for a compliance operation signs or rejects it: an approver other than them must. */
export class SelfApproveOperationError extends BaseError {
  override name = 'SelfApproveOperationError'
  constructor() {
    super('self_approval', 'You asked for this operation: a second person must approve or reject it.')
  }
}

/** Sign or reject a compliance operation that is not awaiting approval. */
export class OperationNotAwaitingError extends BaseError {
  override name = 'OperationNotAwaitingError'
  readonly status: string
  constructor({ status }: { status: string }) {
    super('not_awaiting_approval', `This operation is not awaiting approval (it is ${status.replace('_', ' ')}).`)
    this.status = status
  }
}
