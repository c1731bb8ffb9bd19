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
  }
}

function oz(limit: string | null): string {
  return limit === null ? 'unlimited' : `${formatDecimal(ozToWei(limit), { decimals: 18, minFraction: 3 })} oz`
}
