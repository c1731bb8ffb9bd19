'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { OrdersAwaitingApproval as Queue } from '@/lib/web/approvals/OrdersAwaitingApproval'
import type { DecisionOutcome } from './ApprovalActions'
import { ApprovalCard } from './ApprovalCard'

/**
 * The orders waiting for a second person, oldest first, each with "sign and approve" and
 * reject behind a confirmation. After a decision the page is rendered again on the server (the
 * order leaves the queue) and the outcome is announced here.
 */
export type ApprovalQueueProps = {
  queue: Queue
  /** the signed-in approver */
  viewerEmail: string
  /** the injected wallet, and in dev mode the dev signer too */
  signers: readonly KeySignerKind[]
}

export function ApprovalQueue({ queue, viewerEmail, signers }: ApprovalQueueProps) {
  const router = useRouter()
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null)

  const decided = (o: DecisionOutcome) => {
    setOutcome(o)
    router.refresh()
  }

  return (
    <div className="space-y-4">
      {outcome ? (
        <Alert tone={outcome.tone === 'ok' ? 'success' : 'error'} aria-live="polite">
          {outcome.text}
        </Alert>
      ) : null}
      {queue.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 bg-white px-5 py-10 text-center text-sm text-stone-500">
          No order is waiting for approval.
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Orders awaiting approval">
          {queue.items.map((item) => (
            <li key={item.orderId}>
              <ApprovalCard item={item} viewerEmail={viewerEmail} signers={signers} onDecided={decided} />
            </li>
          ))}
        </ul>
      )}
      {queue.more > 0 ? (
        <p className="text-sm text-stone-500">{`${queue.more} more waiting: decide on these first.`}</p>
      ) : null}
    </div>
  )
}
