import type { BadgeTone } from '@/components/ui/Badge'
import type { DepositStatus, RedemptionStatus } from './redemptionsApi'

/** Polling interval while a redemption shown is on its way to the chain (pending or submitted). */
export const REDEMPTION_LIVE_POLL_MS = 1_000

/** The statuses of a redemption, in the order the filter lists them. */
export const redemptionStatuses: readonly RedemptionStatus[] = [
  'awaiting_approval',
  'pending',
  'submitted',
  'burned',
  'failed',
  'rejected',
  'cancelled',
]

/** A redemption's status in words, what it means, and its badge's tone. */
export const REDEMPTION_STATUS_WORDS: Record<RedemptionStatus, { label: string; hint: string; tone: BadgeTone }> = {
  awaiting_approval: { label: 'Awaiting approval', hint: "Waits for approvers' signatures", tone: 'warning' },
  pending: {
    label: 'Pending',
    hint: 'Signed by its approvers, waiting for the worker to send the burn',
    tone: 'warning',
  },
  submitted: { label: 'Submitted', hint: 'The burn is broadcast, waiting for its confirmations', tone: 'info' },
  burned: { label: 'Burned', hint: 'Burned on chain: the supply fell, its bars are redeemed', tone: 'success' },
  failed: { label: 'Failed', hint: 'The burn reverted, or gave up after its last attempt', tone: 'danger' },
  rejected: {
    label: 'Rejected',
    hint: 'Rejected by an approver; its deposit and bars are free again',
    tone: 'neutral',
  },
  cancelled: {
    label: 'Cancelled',
    hint: 'Cancelled by an admin; its deposit and bars are free again',
    tone: 'neutral',
  },
}

/** Whether the redemption is on its way to the chain: its pages poll then. */
export function isRedemptionInFlight(status: RedemptionStatus): boolean {
  return status === 'pending' || status === 'submitted'
}

/** A deposit's status in words and its badge's tone. */
export const DEPOSIT_STATUS_WORDS: Record<DepositStatus, { label: string; tone: BadgeTone }> = {
  unmatched: { label: 'Unmatched', tone: 'warning' },
  matched: { label: 'Matched', tone: 'info' },
  redeemed: { label: 'Redeemed', tone: 'success' },
}
