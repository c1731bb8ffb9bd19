import { Badge } from '@/components/ui/Badge'
import { isRedemptionInFlight, REDEMPTION_STATUS_WORDS } from './redemptionStatusWords'
import type { RedemptionStatus } from './redemptionsApi'

/** A redemption's status as a coloured badge; the hint is the tooltip and the accessible description. */
export function RedemptionStatusBadge({ status }: { status: RedemptionStatus }) {
  const { label, hint, tone } = REDEMPTION_STATUS_WORDS[status]
  return (
    <Badge tone={tone} title={hint} data-status={status}>
      {isRedemptionInFlight(status) ? (
        <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-current" />
      ) : null}
      {label}
      <span className="sr-only">: {hint}</span>
    </Badge>
  )
}
