import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type MintStatus, mintOrders } from '@/db/schema'
import type { FailureReason } from '@/lib/errors/jobs'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { releaseBars } from '@/lib/vault/releaseBars'

export type MarkOrderFailedParameters = {
  orderId: string
  /** what happened, for the admin's job page (the order's failure_reason, URLs redacted); never sent outside */
  reason: string
  /** why, as the order's mint.failed event says it to webhooks and email (lib/errors/jobs.ts FAILURE_REASONS) */
  code: FailureReason
  /** with attempts_exhausted: the code of the last attempt's failure */
  lastError?: FailureReason
  /** the statuses the order may be failed from (never a confirmed or cancelled one) */
  from?: readonly MintStatus[]
}

/**
 * Marks an order failed: the reason for the admin (URLs redacted) on the order, the code
 * in its mint.failed event; returns whether it changed.
 */
export async function markOrderFailed(
  tx: Tx,
  { orderId, reason, code, lastError, from = ['pending', 'submitted', 'failed'] }: MarkOrderFailedParameters,
): Promise<boolean> {
  const failureReason = redactSecrets(reason).slice(0, 2000)
  // the mint.failed event in this transaction when the order becomes failed (not when it already was);
  // it says why with a stable code, never the error's text (the admin's job page shows that)
  const becoming = from.filter((status) => status !== 'failed')
  await recordMintEvent(tx, {
    type: 'mint.failed',
    orderId,
    status: 'failed',
    from: becoming,
    data: { reason: code, ...(lastError ? { lastError } : {}) },
  })
  const rows = await tx
    .update(mintOrders)
    .set({ status: 'failed', failureReason, updatedAt: new Date() })
    .where(and(eq(mintOrders.id, orderId), inArray(mintOrders.status, [...from])))
    .returning({ id: mintOrders.id })
  // a failed order frees its bars in the same transaction, unless a transaction signed for it can still be
  // mined (docs/architecture.md invariant 4): then they stay held until the nonce health check frees them
  if (rows.length > 0) await releaseBars(tx, { orderId, timeline: { task: TASK.mintSend } })
  return rows.length > 0
}
