import { refusalSentence } from '@/components/wallet/refusalSentence'
import { ApiError } from '@/lib/web/errors/api'

/** The approve and reject routes' refusals of a redemption, in words an approver acts on. */
const refusals: Readonly<Record<string, string>> = {
  self_approval: 'you requested this redemption, and another person must sign it.',
  already_signed: 'you have signed this redemption already; it waits for another approver.',
  invalid_signature:
    'the signature was not accepted: it must come from the key bound to you, that key must be an approver on ' +
    'chain, and the intent must not have expired.',
  not_awaiting_approval: 'the redemption is no longer awaiting approval: someone decided on it meanwhile.',
  account_frozen: 'the holder is frozen on chain: the burn cannot be approved while they are.',
  forbidden: 'your role may not sign redemptions.',
  unauthenticated: 'your session has ended: sign in again.',
}

/**
 * Why signing, approving or rejecting a redemption failed, as the end of a sentence ("Could not approve ...:
 * <this>"): the API's refusals by their code, the rest as refusalSentence says.
 */
export function redemptionRefusalMessage(error: unknown): string {
  if (error instanceof ApiError && Object.hasOwn(refusals, error.serverCode)) return refusals[error.serverCode]
  return refusalSentence(error)
}
