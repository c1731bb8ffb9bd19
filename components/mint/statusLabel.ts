import type { MintStatus } from '@/lib/web/mint/apiTypes'

/** An order's status in words ("Awaiting approval"), and what it means: the badge, the filter and the texts. */
export const STATUS_WORDS: Record<MintStatus, { label: string; hint: string }> = {
  pending: { label: 'Pending', hint: 'Accepted, waiting to be signed' },
  submitted: { label: 'Submitted', hint: 'Broadcast, waiting for confirmations' },
  confirmed: { label: 'Confirmed', hint: 'Minted and confirmed on chain' },
  failed: { label: 'Failed', hint: 'Reverted, or gave up after its last attempt' },
  cancelled: { label: 'Cancelled', hint: 'Cancelled by an admin' },
  awaiting_approval: { label: 'Awaiting approval', hint: 'Waits for a second person to approve it' },
  rejected: { label: 'Rejected', hint: 'Rejected by an approver; its bars are free again' },
}

/** 'awaiting_approval' -> 'Awaiting approval' */
export function statusLabel(status: MintStatus): string {
  return STATUS_WORDS[status].label
}
