import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { describeFailureReason } from '@/lib/notifications/describeFailureReason'
import { publicFailureReason } from '@/lib/notifications/publicFailureReason'

export type OrderEventFacts = {
  /** "401.084 oz", or "unknown amount" when the event lacks it */
  amount: string
  /** the token recipient */
  to: string
  /**
   * the transaction of a confirmed mint, the reason code of a failed one (with its fixed sentence);
   * none for other events
   */
  outcome: { label: 'Transaction' | 'Reason'; value: string } | null
}

/**
 * What an order event's email says about it, read once from
 * its payload for the order's own email and the digest's line.
 */
export function orderEventFacts({
  type,
  payload,
}: {
  type: string
  payload: Record<string, unknown>
}): OrderEventFacts {
  const amount = typeof payload.amountWei === 'string' ? `${formatOrderAmount(payload.amountWei)} oz` : 'unknown amount'
  const outcome =
    type === 'mint.confirmed'
      ? { label: 'Transaction' as const, value: String(payload.txHash ?? '') }
      : type === 'mint.failed'
        ? { label: 'Reason' as const, value: reasonOf(payload) }
        : null
  return { amount, to: String(payload.to ?? ''), outcome }
}

/**
 * "attempts_exhausted: every attempt failed (last: nonce_consumed)": codes and fixed sentences
 * only, never an error's text
 */
function reasonOf(payload: Record<string, unknown>): string {
  const reason = describeFailureReason(publicFailureReason(payload.reason))
  return payload.lastError === undefined ? reason : `${reason} (last: ${publicFailureReason(payload.lastError)})`
}
