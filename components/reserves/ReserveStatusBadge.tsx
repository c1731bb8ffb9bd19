import { Badge } from '@/components/ui/Badge'
import type { ApiReserveStatus } from '@/lib/web/reserves/apiTypes'

/** covered (green) or shortfall (red): the one word the reserves page and the admin dashboard lead with. */
export function ReserveStatusBadge({ status, className }: { status: ApiReserveStatus; className?: string }) {
  return (
    <Badge tone={status === 'covered' ? 'success' : 'danger'} className={className}>
      {status === 'covered' ? 'Covered' : 'Shortfall'}
    </Badge>
  )
}
