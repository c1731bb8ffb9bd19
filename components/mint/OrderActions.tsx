'use client'

import { useState } from 'react'
import { ApprovalActions, type DecisionOutcome } from '@/components/approvals/ApprovalActions'
import { Alert } from '@/components/ui/Alert'
import { Card, CardHeader, CardTitle } from '@/components/ui/Card'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { UserRole } from '@/lib/web/auth/SessionUser'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { OrderJobActions } from './OrderJobActions'

/** Who looks at the order page, and how they may sign there. */
export type OrderViewer = {
  email: string
  role: UserRole
  /** the injected wallet, and in dev mode the dev signer too */
  signers: readonly KeySignerKind[]
}

export type OrderActionsProps = {
  order: ApiMintOrder
  viewer: OrderViewer
  /** a decision was made: the page reads the order again */
  onChanged: () => void
}

/**
 * What the order page's viewer may do to it: an approver or an admin decides on an order awaiting approval (the
 * approvals page's own ApprovalActions; their own request is shown as not theirs to decide), an admin retries or
 * cancels its jobs where their state allows (OrderJobActions). Staff and auditors are offered nothing; the routes
 * refuse them whatever a page shows.
 */
export function OrderActions({ order, viewer, onChanged }: OrderActionsProps) {
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null)
  const decides = viewer.role === 'approver' || viewer.role === 'admin'
  return (
    <>
      {outcome ? (
        <Alert tone={outcome.tone === 'ok' ? 'success' : 'error'} aria-live="polite">
          {outcome.text}
        </Alert>
      ) : null}
      {decides && order.status === 'awaiting_approval' ? (
        <Card aria-labelledby="decide-heading">
          <CardHeader>
            <CardTitle id="decide-heading">Your decision</CardTitle>
          </CardHeader>
          <div className="pt-4">
            <ApprovalActions
              order={{
                orderId: order.orderId,
                amount: order.amount,
                to: order.to,
                requestedBy: order.requestedBy,
                vault: order.vaultProof.vault,
                barCount: order.vaultProof.bars.length,
              }}
              mine={order.requestedBy === viewer.email}
              viewerEmail={viewer.email}
              signers={viewer.signers}
              onDecided={(o) => {
                setOutcome(o)
                onChanged()
              }}
            />
          </div>
        </Card>
      ) : null}
      {viewer.role === 'admin' ? <OrderJobActions orderId={order.orderId} status={order.status} /> : null}
    </>
  )
}
