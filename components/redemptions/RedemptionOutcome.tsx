import { Alert, type AlertTone } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiRedemption } from '@/lib/web/redemptions/apiTypes'

export type RedemptionOutcomeProps = {
  redemption: Pick<
    ApiRedemption,
    'status' | 'amount' | 'txHash' | 'blockNumber' | 'burnedAt' | 'failureReason' | 'rejectionReason' | 'signatures'
  >
}

const TONES: Record<ApiRedemption['status'], AlertTone> = {
  awaiting_approval: 'info',
  pending: 'info',
  submitted: 'info',
  burned: 'success',
  failed: 'error',
  rejected: 'warning',
  cancelled: 'warning',
}

const TITLES: Record<ApiRedemption['status'], string> = {
  awaiting_approval: 'Awaiting approval: nothing is burned until approvers sign',
  pending: 'Approved: waiting for the worker to send the burn',
  submitted: 'Submitted: the burn waits for its confirmations',
  burned: 'Burned',
  failed: 'Failed: nothing was burned',
  rejected: 'Rejected: nothing will be burned',
  cancelled: 'Cancelled: nothing will be burned',
}

/**
 * What the redemption page says first: where the redemption stands, the burn's transaction once there is one, and
 * why it failed or was rejected.
 */
export function RedemptionOutcome({ redemption: r }: RedemptionOutcomeProps) {
  return (
    <Alert tone={TONES[r.status]} title={TITLES[r.status]} aria-label="Outcome">
      {r.status === 'awaiting_approval' ? (
        <p>
          {r.signatures.length === 0
            ? 'No approver has signed yet.'
            : `Signed so far by ${r.signatures.map((s) => s.user).join(', ')}.`}{' '}
          An approver or admin other than its requester signs its intent with their own key.
        </p>
      ) : null}
      {r.txHash ? (
        <p>
          Burn transaction <span className="break-all font-mono text-xs">{r.txHash}</span>
          {r.blockNumber ? ` in block ${r.blockNumber}` : ''}
          {r.burnedAt ? (
            <>
              , confirmed <time dateTime={r.burnedAt}>{formatUtc(r.burnedAt)}</time>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {r.status === 'burned' ? (
        <p>{r.amount} oz left the supply; its bars are redeemed and await release by the custodian.</p>
      ) : null}
      {r.failureReason ? <p className="break-words">Why: {r.failureReason}</p> : null}
      {r.rejectionReason ? (
        <p>
          Reason given: <q className="break-words">{r.rejectionReason}</q>
        </p>
      ) : null}
      {r.status === 'rejected' || r.status === 'cancelled' ? <p>Its deposit and its bars are free again.</p> : null}
    </Alert>
  )
}
