import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { shortHex } from '@/lib/mint/shortHex'
import { shortOrderId } from '@/lib/mint/shortOrderId'
import { describeFailureReason } from '@/lib/notifications/describeFailureReason'
import { publicFailureReason } from '@/lib/notifications/publicFailureReason'

/**
 * What an event says happened to its order: a `mint.failed` event announces a failure, or (its
 * status says) a rejection or a cancel
 */
export type OrderEventKind = 'awaiting_approval' | 'confirmed' | 'failed' | 'rejected' | 'cancelled' | 'other'

export type OrderEventFactsParameters = {
  type: string
  orderId: string
  payload: Record<string, unknown>
  /** the recipient's allowlist label, when it is listed */
  recipientLabel?: string | null
  /** a rejection's reason in its approver's words */
  rejectionReason?: string | null
}

export type OrderEventFacts = {
  kind: OrderEventKind
  /** what the event is about, as a headline names it: "mint", "redemption", "freeze", "pause"... */
  noun: string
  /** the order id's first 8 characters, as the tables show it */
  shortId: string
  /** "401.084 oz", or "unknown amount" when the event lacks it */
  amount: string
  /** the token recipient, in full */
  to: string
  /** the recipient's allowlist label; null when it is not listed */
  label: string | null
  /** the recipient as a subject names it: its allowlist label, else its short address */
  recipient: string
  /**
   * the transaction of a confirmed mint, the reason code of a failed, rejected or cancelled one (with its fixed
   * sentence); none for other events
   */
  outcome: { label: 'Transaction' | 'Reason'; value: string } | null
  /** a rejection's reason in its approver's words; null otherwise */
  note: string | null
}

/**
 * What an order event's email says about it, read once from its payload (and the recipient's label and a
 * rejection's words, read with the email's claim) for the order's own email and the digest's line.
 */
export function orderEventFacts(p: OrderEventFactsParameters): OrderEventFacts {
  const { payload } = p
  const kind = kindOf(p.type, payload.status)
  const amount = typeof payload.amountWei === 'string' ? `${formatOrderAmount(payload.amountWei)} oz` : 'unknown amount'
  // a mint's recipient, a redemption's holder, a compliance operation's account
  const to = String(payload.to ?? payload.holder ?? payload.account ?? '')
  const outcome =
    kind === 'confirmed'
      ? { label: 'Transaction' as const, value: String(payload.txHash ?? '') }
      : kind === 'failed' || kind === 'rejected' || kind === 'cancelled'
        ? { label: 'Reason' as const, value: reasonOf(payload) }
        : null
  return {
    kind,
    noun: nounOf(p.type, payload),
    shortId: shortOrderId(p.orderId),
    amount,
    to,
    label: p.recipientLabel || null,
    recipient: p.recipientLabel || (to === '' ? 'an unknown recipient' : shortHex(to)),
    outcome,
    note: kind === 'rejected' ? (p.rejectionReason ?? null) : null,
  }
}

/** the events of a mint order, a redemption and a compliance operation alike: asked to approve, done, or not */
function kindOf(type: string, status: unknown): OrderEventKind {
  const [, event] = type.split('.')
  if (event === 'awaiting_approval') return 'awaiting_approval'
  if (type === 'mint.confirmed' || type === 'redemption.burned' || type === 'compliance.applied') return 'confirmed'
  if (event === 'failed') return status === 'rejected' || status === 'cancelled' ? status : 'failed'
  return 'other'
}

function nounOf(type: string, payload: Record<string, unknown>): string {
  if (type.startsWith('redemption.')) return 'redemption'
  if (type.startsWith('compliance.'))
    return typeof payload.action === 'string' ? payload.action : 'compliance operation'
  return 'mint'
}

/**
 * "attempts_exhausted: every attempt failed (last: nonce_consumed)": codes and fixed sentences
 * only, never an error's text
 */
function reasonOf(payload: Record<string, unknown>): string {
  const reason = describeFailureReason(publicFailureReason(payload.reason))
  return payload.lastError === undefined ? reason : `${reason} (last: ${publicFailureReason(payload.lastError)})`
}
