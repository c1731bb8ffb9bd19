import { formatDecimal } from '@/lib/money/formatDecimal'
import { ozToWei } from '@/lib/money/ozToWei'
import type { ParsedControlChange } from './controlChangeParams'

export type DescribeControlChangeParameters = {
  change: ParsedControlChange
  /** user.role: the email of the user it names (null: no such user) */
  userEmail?: string | null
}

/** What a control change changes, as one sentence for the admin pages. */
export function describeControlChange({ change, userEmail }: DescribeControlChangeParameters): string {
  switch (change.kind) {
    case 'recipient.add':
      return `Add ${change.params.address} (${change.params.label}) to the recipient allowlist`
    case 'recipient.remove':
      return `Remove ${change.params.address} from the recipient allowlist`
    case 'limits.set':
      return `Set the per-order limit to ${oz(change.params.maxOrderOz)} and the rolling 24 h cap to ${oz(change.params.dailyCapOz)}`
    case 'user.role':
      return `Make ${userEmail ?? `user ${change.params.userId}`} ${change.params.role}`
    case 'signing.resume':
      return `Resume signing (the stop switch off): ${change.params.reason}`
    case 'approver.add':
      return `Add ${change.params.address} to GoldMinter's approvers`
    case 'approver.remove':
      return `Remove ${change.params.address} from GoldMinter's approvers`
    case 'approvals.rule':
      return `Require ${change.params.approvalsBelow} approver signature(s) below ${change.params.largeAmountOz} oz, ${change.params.approvalsAtOrAbove} at or above, ${change.params.complianceApprovals} for a compliance action`
    case 'mint.rate_limit':
      return `Set the on-chain mint rate limit to ${change.params.capacityOz} oz, refilling ${change.params.refillOzPerSecond} oz a second`
    case 'custodian.add':
      return `Register ${change.params.address} as a custodian key`
    case 'custodian.remove':
      return `Unregister the custodian key ${change.params.address}`
    case 'custodian.vault':
      return change.params.custodian === null
        ? `Remove the vault ${change.params.vault} and its reserve from GoldMinter`
        : `Make ${change.params.custodian} the custodian key of the vault ${change.params.vault}`
    case 'admin.add':
      return `Add ${change.params.address} to GoldMinter's admins`
    case 'admin.remove':
      return `Remove ${change.params.address} from GoldMinter's admins`
    case 'admin.threshold':
      return `Require ${change.params.threshold} admins' signatures for a control change`
    case 'nonce.cancel':
      return `Cancel nonce ${change.params.nonce} of the signer ${change.params.signerAddress}: a zero-value self-transfer replaces its pending transaction, whose mint is cancelled`
  }
}

function oz(limit: string | null): string {
  return limit === null ? 'unlimited' : `${formatDecimal(ozToWei(limit), { decimals: 18, minFraction: 3 })} oz`
}
