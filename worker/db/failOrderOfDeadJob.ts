import type { Tx } from '@/db/client'
import type { FailureReason } from '@/lib/errors/jobs'
import { ORDER_TASKS, TASK } from '@/lib/jobs/jobKeys'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import { markComplianceOperationFailed } from './markComplianceOperations'
import { markControlChangeFailed } from './markControlChanges'
import { markOrderFailed } from './markOrderFailed'
import { markRedemptionFailed } from './markRedemptions'

export type FailOrderOfDeadJobParameters = {
  task: string
  orderId: string | null
  /** what happened, for the admin (the order's failure_reason) */
  reason: string
  /** why, for the events: the permanent error's code, or attempts_exhausted */
  code: FailureReason
  /** with attempts_exhausted: the code of the last attempt's failure */
  lastError?: FailureReason
}

/**
 * What a dead job means for its order (a dead control_send: its control change fails; a dead redemption_send: its
 * redemption fails, with a redemption.failed event; a dead compliance_send: its compliance operation fails, with a
 * compliance.failed event saying why with `code`). A dead mint_send: the order is
 * `failed` with the reason (unless it already got further: submitted, confirmed or cancelled). A dead
 * order_confirm leaves the order `submitted`: its transaction is signed and may be, or
 * become, mined, so `failed` would be a lie; the dead letter is what the admin sees
 * (docs/decisions/025-exactly-once-mints.md). Either way a mint.dead_letter event is written
 * (lib/notifications/recordMintEvent), saying why with `code`, never with `reason`'s text.
 */
export async function failOrderOfDeadJob(
  tx: Tx,
  { task, orderId, reason, code, lastError }: FailOrderOfDeadJobParameters,
): Promise<boolean> {
  // a dead control_send: its change failed, unless its call is broadcast (submitted: the confirmer follows it)
  if (orderId && task === TASK.controlSend)
    return markControlChangeFailed(tx, { id: orderId, reason, from: ['pending', 'failed'] })
  // a dead redemption_send: its redemption failed (it keeps its deposit and bars for an admin's retry or cancel)
  if (orderId && task === TASK.redemptionSend) {
    await recordRedemptionEvent(tx, {
      type: 'redemption.failed',
      redemptionId: orderId,
      status: 'failed',
      from: ['pending', 'failed'],
      data: { reason: code },
    })
    return markRedemptionFailed(tx, { id: orderId, reason, from: ['pending', 'failed'] })
  }
  // a dead compliance_send: its operation failed, unless its call is broadcast (the confirmer follows it)
  if (orderId && task === TASK.complianceSend)
    return markComplianceOperationFailed(tx, { id: orderId, reason, code, from: ['pending', 'failed'] })
  if (!orderId || !ORDER_TASKS.includes(task)) return false
  const failed =
    task === TASK.mintSend
      ? await markOrderFailed(tx, { orderId, reason, code, lastError, from: ['pending', 'failed'] })
      : false
  // every dead mint job is a mint.dead_letter event, in the transaction that records it dead;
  // its reason is the code: the text stays in the job's history (the admin's job page)
  await recordMintEvent(tx, {
    type: 'mint.dead_letter',
    orderId,
    status: null,
    from: null,
    data: { task, reason: code, ...(lastError ? { lastError } : {}) },
  })
  return failed
}
