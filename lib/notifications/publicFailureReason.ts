import { FAILURE_REASONS, type FailureReason } from '@/lib/errors/jobs'

const KNOWN: ReadonlySet<unknown> = new Set(FAILURE_REASONS)

/**
 * The `reason` (or `lastError`) of an order event as it may leave mintdesk, in a webhook
 * body or an email: one of FAILURE_REASONS, else `unspecified`. An event recorded before
 * reason codes carried the error's text there (up to 2,000 characters of it); that text
 * is never sent, whatever the row holds.
 *
 * @example
 * publicFailureReason('reverted') // 'reverted'
 * publicFailureReason('mint reverted on chain: FrozenAddress(0x90F7...)') // 'unspecified'
 */
export function publicFailureReason(value: unknown): FailureReason {
  return KNOWN.has(value) ? (value as FailureReason) : 'unspecified'
}
