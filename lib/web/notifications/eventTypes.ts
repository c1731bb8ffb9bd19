/** The events a webhook can subscribe to (docs/api.md "Webhooks and email"); client-safe (no db import). */
export const NOTIFICATION_EVENT_TYPES = [
  'mint.awaiting_approval',
  'mint.confirmed',
  'mint.failed',
  'mint.dead_letter',
  /** its transaction broadcast the first time (txHash) */
  'mint.submitted',
  /** a fee bump replaced its transaction (txHash the new one, replaced the old) */
  'mint.replaced',
  /** its mined transaction was reorged away: submitted again until it is mined again */
  'mint.reorged',
  /** a transfer to the redemption address has its confirmations (txHash, logIndex, from, amountWei) */
  'redemption.deposit_received',
  'redemption.awaiting_approval',
  /** its burn has its confirmations: the supply fell by amountWei, its bars are redeemed */
  'redemption.burned',
  'redemption.failed',
  'compliance.awaiting_approval',
  /** a freeze, unfreeze, pause or unpause has its confirmations */
  'compliance.applied',
  'compliance.failed',
] as const
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number]
