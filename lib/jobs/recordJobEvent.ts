import type { DbOrTx } from '@/db/client'
import { recordJobEvents } from './recordJobEvents'

export type JobEventName =
  | 'enqueued'
  | 'started'
  | 'succeeded'
  | 'failed'
  | 'retrying'
  | 'dead'
  | 'nonce_reserved'
  | 'simulated'
  | 'signed'
  | 'broadcast'
  | 'already_known'
  | 'not_mined_yet'
  | 'replaced'
  | 'mined'
  | 'confirmed'
  | 'reverted'
  | 'reorged'
  | 'rebroadcast'
  | 'gap_filled'
  | 'retried'
  | 'cancelled'
  | 'unlocked'
  /** a mined mint found for an order that was not `submitted` (the chain wins) */
  | 'reconciled'
  /**
   * a signer's next_nonce brought up to the chain's count: nonces used on chain while the database did not know
   * them (a restore), recorded as use `resync` (worker/mint/resyncSignerNonces.ts)
   */
  | 'nonce_resynced'
  /** a chain event no row of the desk accounts for, listed for the admins (unreconciled_events) */
  | 'unreconciled_event'
  /** a signer's lowest outstanding nonce is not being mined: the pool is re-sent in nonce order */
  | 'stalled'
  /** Postgres and the chain disagree on a signer's nonces in a way the worker cannot repair */
  | 'nonce_mismatch'
  /** the node refused a transaction for its fees: order_confirm replaces it with higher ones */
  | 'underpriced'
  /** a cancelled order's nonce handed back, to be filled by a gap fill */
  | 'nonce_released'
  /**
   * the fees the chain asks for are above the fee ceiling (MAX_FEE_PER_GAS,
   * MAX_PRIORITY_FEE): nothing signed, the order waits (lib/jobs/latestFeeEventSql.ts)
   */
  | 'fee_capped'
  /**
   * the check before signing refused the mint (worker/mint/checkBeforeSigning.ts): a bar
   * of the order is not held by it, its amount is not its bars' weight, or supply
   * would exceed reserves. Nothing signed, the job dead, the order failed.
   */
  | 'refused'
  /** four eyes: the order awaits a second person's approval (no job yet) */
  | 'approval_requested'
  /** a second person approved the order: its mint_send job is added in the same transaction */
  | 'approved'
  /** a second person rejected the order, with a reason: its bars are free again */
  | 'rejected'
  /**
   * a failed or cancelled order keeps its bars: a transaction signed for it can still be
   * mined (lib/vault/releaseBars.ts)
   */
  | 'bars_held'
  /** the held bars of a failed or cancelled order freed: a transaction at each of its nonces is mined */
  | 'bars_released'

export type RecordJobEventParameters = {
  event: JobEventName
  task: string
  orderId?: string | null
  jobId?: bigint | string | null
  attempt?: number | null
  detail?: string | null
  /** message and stack of a failure */
  error?: string | null
  /** a worker id, or an admin's email */
  actor?: string | null
  durationMs?: number | null
  data?: Record<string, unknown> | null
}

/**
 * Appends one row to the timeline (job_events). Joins the caller's transaction when given
 * one. Detail and error are stored with URLs redacted (an RPC URL carries its API key).
 */
export async function recordJobEvent(db: DbOrTx, p: RecordJobEventParameters): Promise<void> {
  await recordJobEvents(db, [p])
}
