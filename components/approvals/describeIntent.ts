import { formatDecimal } from '@/lib/money/formatDecimal'
import { ozToWei } from '@/lib/money/ozToWei'
import { TOKEN_DECIMALS } from '@/lib/money/units'
import type { ApiMintApproval } from '@/lib/web/signing/apiTypes'

/** 9999-12-31T23:59:59Z: the last second an ISO time can write */
const LAST_ISO_SECOND = 253_402_300_799n

/** What an approver reads before signing: the typed data's fields in words. */
export type IntentDescription = {
  recipient: string
  /** fine oz, at least 3 decimals (exact: more if the wei amount has them) */
  amountOz: string
  barsHash: string
  /** ISO time of the deadline (null past year 9999), and whether it has passed at `now` */
  deadline: string | null
  expired: boolean
  chainId: string
  contract: string
  /** where the intent differs from the order the page lists: do not sign */
  mismatches: string[]
}

export type DescribeIntentParameters = {
  approval: ApiMintApproval
  /** the order as the approvals page lists it */
  order: { to: string; amount: string }
  now: Date
}

/**
 * The intent of an approval answer in words, checked against the order it is for: a
 * recipient or an amount that differs from the order's is a mismatch, and the page offers
 * no signing then.
 */
export function describeIntent({ approval, order, now }: DescribeIntentParameters): IntentDescription {
  const { domain, message } = approval.typedData
  const wei = BigInt(message.amount)
  const deadlineSeconds = BigInt(message.deadline)
  const mismatches: string[] = []
  if (message.to.toLowerCase() !== order.to.toLowerCase()) {
    mismatches.push(`the intent's recipient ${message.to} is not the order's ${order.to}`)
  }
  if (wei !== ozToWei(order.amount)) mismatches.push(`the intent's amount is not the order's ${order.amount} oz`)
  return {
    recipient: message.to,
    amountOz: formatDecimal(wei, { decimals: TOKEN_DECIMALS, minFraction: 3 }),
    barsHash: message.barsHash,
    deadline: deadlineSeconds <= LAST_ISO_SECOND ? new Date(Number(deadlineSeconds) * 1000).toISOString() : null,
    expired: deadlineSeconds * 1000n <= BigInt(now.getTime()),
    chainId: domain.chainId === undefined ? 'not given' : String(domain.chainId),
    contract: domain.verifyingContract ?? 'not given',
    mismatches,
  }
}
