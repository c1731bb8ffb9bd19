import { Badge, type BadgeTone } from '@/components/ui/Badge'
import type { MintStatus } from '@/lib/web/mint/apiTypes'
import { STATUS_WORDS } from './statusLabel'

const tones: Record<MintStatus, BadgeTone> = {
  pending: 'warning',
  submitted: 'info',
  confirmed: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  awaiting_approval: 'warning',
  rejected: 'neutral',
}

/** An order's status as a coloured badge; the hint is the tooltip and the accessible description. */
export function StatusBadge({ status }: { status: MintStatus }) {
  const tone = tones[status]
  const { label, hint } = STATUS_WORDS[status]
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
