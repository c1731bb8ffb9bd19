'use client'

import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { UserRole } from '@/lib/web/auth/SessionUser'
import type { ApiRedemption } from '@/lib/web/redemptions/apiTypes'
import { RedemptionBarsTable } from './RedemptionBarsTable'
import { type DecisionOutcome, RedemptionDecision } from './RedemptionDecision'
import { RedemptionOutcome } from './RedemptionOutcome'
import { RedemptionStatusBadge } from './RedemptionStatusBadge'
import { RedemptionTimeline } from './RedemptionTimeline'
import { isRedemptionInFlight, REDEMPTION_LIVE_POLL_MS } from './redemptionStatusWords'
import { fetchRedemption, redemptionQueryKey } from './redemptionsApi'

/** While a redemption awaits approvers, its page looks for their signatures this often. */
const AWAITING_POLL_MS = 10_000

/** Who looks at the redemption page, and how they may sign there. */
export type RedemptionViewer = {
  email: string
  role: UserRole
  /** the injected wallet, and in dev mode the dev signer too */
  signers: readonly KeySignerKind[]
}

export type RedemptionDetailProps = {
  initialRedemption: ApiRedemption
  viewer: RedemptionViewer
  /** GoldMinter's redemption address as the reserves give it (null while unknown) */
  redemptionAddress: string | null
}

/**
 * One redemption: its outcome first (status, burn transaction, why it failed or was rejected), the decision for an
 * approver or admin who did not request it, then the deposit, the bars, the signatures and the timeline. Follows
 * the redemption every second while it is pending or submitted, every 10 s while it awaits approval.
 */
export function RedemptionDetail({ initialRedemption, viewer, redemptionAddress }: RedemptionDetailProps) {
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null)
  const query = useQuery({
    queryKey: redemptionQueryKey(initialRedemption.redemptionId),
    queryFn: ({ signal }) => fetchRedemption(initialRedemption.redemptionId, { signal }),
    initialData: initialRedemption,
    refetchInterval: (q) => {
      const status = q.state.data?.status
      if (status && isRedemptionInFlight(status)) return REDEMPTION_LIVE_POLL_MS
      return status === 'awaiting_approval' ? AWAITING_POLL_MS : false
    },
  })
  const r = query.data
  const decides = (viewer.role === 'approver' || viewer.role === 'admin') && r.status === 'awaiting_approval'
  const live = isRedemptionInFlight(r.status)

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex items-center gap-3">
            <h1>Redemption</h1>
            <RedemptionStatusBadge status={r.status} />
          </div>
          <p className="mt-1 font-mono text-xs text-stone-500">{r.redemptionId}</p>
        </div>
        <p role="status" className="text-xs text-stone-500">
          {live ? `Live: refreshing every second while the burn is on its way${query.isFetching ? '…' : ''}` : null}
        </p>
      </div>

      <RedemptionOutcome redemption={r} />
      {outcome ? (
        <Alert tone={outcome.tone === 'ok' ? 'success' : 'error'} aria-live="polite">
          {outcome.text}
        </Alert>
      ) : null}
      {decides ? (
        <RedemptionDecision
          redemption={r}
          mine={r.requestedBy === viewer.email}
          viewerEmail={viewer.email}
          signers={viewer.signers}
          redemptionAddress={redemptionAddress}
          onDecided={(o) => {
            setOutcome(o)
            void query.refetch()
          }}
        />
      ) : null}

      <Card>
        <CardContent>
          <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-4">
            <Item label="Amount">
              <span className="tabular text-lg font-semibold">{r.amount}</span>{' '}
              <span className="text-stone-500">fine oz</span>
            </Item>
            <Item label="Holder" wide>
              <span className="break-all font-mono text-xs">{r.holder}</span>
            </Item>
            <Item label="Reference">
              <span className="break-words">{r.reference}</span>
            </Item>
            <Item label="Deposit" wide>
              <span className="break-all font-mono text-xs">{r.depositTx}</span>{' '}
              <span className="text-stone-500">log {r.depositLogIndex}</span>
            </Item>
            <Item label="Requested by">{r.requestedBy}</Item>
            <Item label="Created">
              <time dateTime={r.createdAt}>{formatUtc(r.createdAt)}</time>
            </Item>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Bars</CardTitle>
        </CardHeader>
        <CardContent>
          <RedemptionBarsTable bars={r.bars} linkOrders={viewer.role !== 'staff'} />
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Signatures</CardTitle>
            </CardHeader>
            <CardContent>
              {r.signatures.length === 0 ? (
                <p className="text-sm text-stone-500">No approver has signed yet.</p>
              ) : (
                <ul className="space-y-2 text-sm" aria-label="Signatures">
                  {r.signatures.map((s) => (
                    <li key={s.signer}>
                      <span className="font-medium">{s.user}</span>{' '}
                      <span className="break-all font-mono text-xs text-stone-600">{s.signer}</span>{' '}
                      <time dateTime={s.at} className="text-xs text-stone-500">
                        {formatUtc(s.at)}
                      </time>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <RedemptionTimeline timeline={r.timeline} />
          </CardContent>
        </Card>
      </div>
    </div>
  )
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'col-span-full sm:col-span-2' : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-1 text-sm text-stone-900">{children}</dd>
    </div>
  )
}
