import type { FailureReason } from '@/lib/errors/jobs'

/** One fixed sentence per code (docs/api.md says the same): what the requester's email says after the code. */
const SENTENCES: Readonly<Record<FailureReason, string>> = {
  job_failed: 'the mint could not be sent',
  job_permanent_failure: 'the mint cannot be sent as it stands',
  job_aborted: 'the worker stopped during the attempt',
  invalid_payload: 'the queued job could not be read',
  worker_start_failed: 'the worker could not start',
  mint_would_revert: 'the token contract would refuse the mint',
  reverted: 'the mint transaction reverted on chain',
  minted_event_missing: 'the transaction succeeded without minting this order',
  not_mined: 'the mint transaction was not mined after every fee increase',
  broadcast_rejected: 'the node refused the transaction',
  fee_too_low: 'the fees were below what the chain asks',
  insufficient_funds: 'the signer cannot pay for gas',
  nonce_consumed: "the signer's nonce was used by a transaction mintdesk did not sign",
  signer_unavailable: "no worker holds the order's signing key",
  sign_timeout: 'the signing service did not answer in time',
  no_base_fee: 'the chain has no EIP-1559 base fee',
  stored_tx_mismatch: 'the stored transaction no longer matches its order',
  no_signer: 'no signing key is available',
  signer_conflict: 'a signing key does not match its record',
  kms_sign_failed: 'the signing service did not return a usable signature',
  kms_key_mismatch: 'a signing key does not belong to its signer',
  bar_not_held: 'a bar of the order is no longer held for it',
  amount_mismatch: "the order's amount is not the fine weight of its bars",
  supply_exceeds_reserves: 'the mint would exceed the attested reserves',
  recipient_not_allowed: 'the recipient is not on the allowlist',
  over_limit: 'the mint is above the per-order limit or the 24 h cap',
  approval_missing: 'the order lacks enough valid approver signatures',
  bar_list_unverified: "the order's bars are not on a bar list its custodian signed",
  attempts_exhausted: 'every attempt failed',
  worker_lost: 'a worker stopped during the last attempt',
  rejected: 'the second person (an approver or an admin) rejected it',
  cancelled: 'an admin cancelled it',
  unspecified: 'no reason was recorded',
}

/**
 * A failure reason code as an email shows it: the code, then its fixed sentence
 * ("recipient_not_allowed: the recipient is not on the allowlist"). Nothing of the
 * error's own text.
 */
export function describeFailureReason(code: FailureReason): string {
  return `${code}: ${SENTENCES[code]}`
}

/** A failure reason code's fixed sentence alone ("the recipient is not on the allowlist"), as the order page has it. */
export function failureReasonSentence(code: FailureReason): string {
  return SENTENCES[code]
}
