import { formatDecimal } from '@/lib/money/formatDecimal'
import { ozToWei } from '@/lib/money/ozToWei'
import { TOKEN_DECIMALS } from '@/lib/money/units'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'

/** 9999-12-31T23:59:59Z: the last second an ISO time can write */
const LAST_ISO_SECOND = 253_402_300_799n

/** What an approver reads before signing a burn: the RedemptionIntent's fields in words. */
export type RedemptionIntentDescription = {
  /** the address the burn takes the tokens from */
  from: string
  /** fine oz, at least 3 decimals (exact: more if the wei amount has them) */
  amountOz: string
  barsHash: string
  /** ISO time of the deadline (null past year 9999), and whether it has passed at `now` */
  deadline: string | null
  expired: boolean
  chainId: string
  contract: string
  /** where the intent differs from the redemption the page shows: do not sign */
  mismatches: string[]
}

export type DescribeRedemptionIntentParameters = {
  approval: ApiRedemptionApproval
  /** the redemption's amount (fine oz, 3 decimals) */
  amount: string
  /** the redemption address as the reserves give it, null when unknown (then not compared) */
  redemptionAddress: string | null
  now: Date
}

/**
 * The RedemptionIntent of an approval answer in words, checked against the redemption it is for: an amount other
 * than the redemption's, or a `from` other than the redemption address, is a mismatch, and the page offers no
 * signing then.
 */
export function describeRedemptionIntent({
  approval,
  amount,
  redemptionAddress,
  now,
}: DescribeRedemptionIntentParameters): RedemptionIntentDescription {
  const { domain, message } = approval.typedData
  const wei = BigInt(message.amount)
  const deadlineSeconds = BigInt(message.deadline)
  const mismatches: string[] = []
  let expectedWei: bigint | null = null
  try {
    expectedWei = ozToWei(amount)
  } catch {
    expectedWei = null
  }
  if (expectedWei !== wei) mismatches.push(`the intent's amount is not the redemption's ${amount} oz`)
  if (redemptionAddress !== null && message.from.toLowerCase() !== redemptionAddress.toLowerCase())
    mismatches.push(`the intent burns from ${message.from}, not the redemption address ${redemptionAddress}`)
  return {
    from: message.from,
    amountOz: formatDecimal(wei, { decimals: TOKEN_DECIMALS, minFraction: 3 }),
    barsHash: message.barsHash,
    deadline: deadlineSeconds <= LAST_ISO_SECOND ? new Date(Number(deadlineSeconds) * 1000).toISOString() : null,
    expired: deadlineSeconds * 1000n <= BigInt(now.getTime()),
    chainId: domain.chainId === undefined ? 'not given' : String(domain.chainId),
    contract: domain.verifyingContract ?? 'not given',
    mismatches,
  }
}
