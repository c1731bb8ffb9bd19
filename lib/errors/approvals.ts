import { BaseError } from './BaseError'
import { ReserveCheckRefusedError } from './reserves'

/**
 * Errors of the four-eyes approvals (docs/architecture.md invariant 6): approving or
 * rejecting an order (lib/web/approvals/), and the worker's refusal of an order that needed
 * an approval it lacks (worker/mint/checkBeforeSigning.ts). Codes in `lib/errors/http.ts`:
 * self_approval 403, not_awaiting_approval 409.
 */

/** Nobody approves or rejects an order they requested, whatever their role (admins included). */
export class SelfApprovalError extends BaseError {
  override name = 'SelfApprovalError'
  constructor() {
    super('self_approval', 'You requested this order: a second person must approve or reject it.')
  }
}

/** Approve or reject an order that is not awaiting approval. */
export class NotAwaitingApprovalError extends BaseError {
  override name = 'NotAwaitingApprovalError'
  readonly status: string
  constructor({ status }: { status: string }) {
    super('not_awaiting_approval', `This order is not awaiting approval (it is ${status.replace('_', ' ')}).`)
    this.status = status
  }
}

/**
 * The worker refuses to sign an order at or above its approval threshold that has no
 * approval by a second person (approved_by null, or the requester): a row written
 * around the web's approval (a compromised web writing a pending order and its job)
 * gets no signature. Permanent, as the check before signing's other refusals (a
 * 'refused' event): the job goes to the dead letters, the order fails, its bars are freed.
 */
export class ApprovalMissingError extends ReserveCheckRefusedError {
  override name = 'ApprovalMissingError'
  constructor(reason: string) {
    super('approval_missing', reason)
  }
}
