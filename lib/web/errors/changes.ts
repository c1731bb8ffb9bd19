import { BaseError } from '@/lib/errors/BaseError'

/**
 * Errors of the control changes that need a second admin (lib/web/changes/). Codes in
 * `lib/errors/http.ts`: self_approval 403, not_awaiting_second_admin 409.
 */

/** The author of a control change confirms or rejects it: another admin must. */
export class SelfConfirmError extends BaseError {
  override name = 'SelfConfirmError'
  constructor() {
    super('self_approval', 'You asked for this change: another admin must confirm or reject it.')
  }
}

/** Confirm or reject a control change that was already applied or rejected. */
export class ChangeNotAwaitingError extends BaseError {
  override name = 'ChangeNotAwaitingError'
  readonly status: string
  constructor({ status }: { status: string }) {
    super('not_awaiting_second_admin', `This change is not awaiting a second admin (it is ${status}).`)
    this.status = status
  }
}
