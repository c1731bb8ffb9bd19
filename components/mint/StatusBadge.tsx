import { Badge, type BadgeTone } from '@/components/ui/Badge'
import type { MintStatus } from '@/lib/web/mint/apiTypes'

const look: Record<MintStatus, { tone: BadgeTone; label: string; hint: string }> = {
  pending: { tone: 'warning', label: 'Pending', hint: 'Accepted, waiting to be signed' },
  submitted: { tone: 'info', label: 'Submitted', hint: 'Broadcast, waiting for confirmations' },
  confirmed: { tone: 'success', label: 'Confirmed', hint: 'Minted and confirmed on chain' },
  failed: { tone: 'danger', label: 'Failed', hint: 'Reverted, or gave up after its last attempt' },
  cancelled: { tone: 'neutral', label: 'Cancelled', hint: 'Cancelled by an admin' },
  awaiting_approval: { tone: 'warning', label: 'Awaiting approval', hint: 'Waits for a second person to approve it' },
  rejected: { tone: 'neutral', label: 'Rejected', hint: 'Rejected by an approver; its bars are free again' },
}

/** An order's status as a coloured badge; the hint is the tooltip and the accessible description. */
export function StatusBadge({ status }: { status: MintStatus }) {
  const { tone, label, hint } = look[status]
  return (
    <Badge tone={tone} title={hint} data-status={status}>
      {status === 'pending' || status === 'submitted' ? (
        <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-current" />
      ) : null}
      {label}
      <span className="sr-only">: {hint}</span>
    </Badge>
  )
}
