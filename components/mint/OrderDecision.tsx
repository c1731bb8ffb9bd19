import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'

/**
 * Four eyes on the order page: while the order awaits a second person, say so; once
 * decided, who approved or rejected it, when, and why (a rejection). The requester reads
 * the decision here. Nothing for an order that needed no approval.
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
  if (decision?.outcome === 'rejected') {
    return (
      <Alert tone="warning" title="Rejected" aria-label="Decision">
        <p>
          Rejected by <span className="font-medium">{decision.by}</span> on{' '}
          <time dateTime={decision.at}>{formatUtc(decision.at)}</time>. Nothing will be minted; its bars are free again.
        </p>
        {decision.reason ? (
          <p className="mt-1">
            Reason: <q className="break-words">{decision.reason}</q>
          </p>
        ) : null}
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
