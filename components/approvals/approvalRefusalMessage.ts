import { refusalSentence } from '@/components/wallet/refusalSentence'
import { ApiError } from '@/lib/web/errors/api'

/** The approve route's refusals (API.md "Approvals are signatures"), in words an approver acts on. */
const refusals: Readonly<Record<string, string>> = {
  self_approval: 'you requested this order, and a second person must approve it.',
  already_signed: 'you have signed this order already; it waits for another approver.',
  invalid_signature:
    'the signature was not accepted: it must come from the key bound to you, that key must be an approver on ' +
    'chain, and the intent must not have expired.',
  not_awaiting_approval: 'the order is no longer awaiting approval: someone decided on it meanwhile.',
  forbidden: 'your role may not approve orders.',
  unauthenticated: 'your session has ended: sign in again.',
}

/**
 * Why signing or approving an order failed, as the end of a sentence ("Could not approve
 * ...: <this>"): the API's refusals by their code, anything else as refusalSentence says.
 */
export function approvalRefusalMessage(error: unknown): string {
  if (error instanceof ApiError && Object.hasOwn(refusals, error.serverCode)) return refusals[error.serverCode]
  return refusalSentence(error)
}
