import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'

export type OrderEventFacts = {
  /** "401.084 oz", or "unknown amount" when the event lacks it */
  amount: string
  /** the token recipient */
  to: string
  /** the transaction of a confirmed mint, the reason of a failed one; none for other events */
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
        ? { label: 'Reason' as const, value: String(payload.reason ?? 'not recorded') }
        : null
  return { amount, to: String(payload.to ?? ''), outcome }
}
