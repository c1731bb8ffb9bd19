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

/**
 * The worker refuses to relay an order whose bars it cannot tie to a bar list the vault's
 * custodian signed (no signature, a signature by no custodian of the vault, a root or
 * total that its bars do not give, a bar of the order not on the list). Permanent.
 */
export class BarListUnverifiedError extends ReserveCheckRefusedError {
  override name = 'BarListUnverifiedError'
  constructor(reason: string) {
    super('bar_list_unverified', reason)
  }
}

/**
 * A signature that counts for nothing: it does not recover to a key bound to the signer's
 * user that may sign it (an approver on chain; the vault's custodian), or its intent expired.
 */
export class InvalidSignatureError extends BaseError {
  override name = 'InvalidSignatureError'
  constructor(message: string) {
    super('invalid_signature', message)
  }
}

/** The same approver (user or key) signs one intent twice. */
export class AlreadySignedError extends BaseError {
  override name = 'AlreadySignedError'
  constructor({ what = 'order' }: { what?: 'order' | 'change' | 'operation' } = {}) {
    super('already_signed', `You have already signed this ${what}.`)
  }
}
