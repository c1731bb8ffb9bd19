import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'

/**
 * Four eyes on the order page of an order still on its way or confirmed: while it awaits a
 * second person, say so; once approved, who approved it and when. A rejected (or failed,
 * or cancelled) order's page says its outcome instead (OrderOutcome: who rejected it, when
 * and why). Nothing for an order that needed no approval.
 */
export function OrderDecision({ order }: { order: Pick<ApiMintOrder, 'status' | 'decision'> }) {
  const { decision } = order
  if (decision?.outcome === 'approved') {
    return (
      <Alert tone="success" title="Approved" aria-label="Decision">
        Approved by <span className="font-medium">{decision.by}</span> on{' '}
        <time dateTime={decision.at}>{formatUtc(decision.at)}</time>.
      </Alert>
    )
  }
  if (order.status === 'awaiting_approval') {
    return (
      <Alert tone="info" title="Awaiting approval" aria-label="Decision">
        A second person (an approver or an admin who did not request it) must approve this order before anything is
        signed.
      </Alert>
    )
  }
  return null
}
