import type { Tx } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { orderConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { WorkerContext } from '../runtime/context'
import type { OrderConfirmPayload } from '../tasks/orderConfirm'

export type ConfirmOrderAloneParameters = {
  orderId: string
  actor: string
  /** why, for the timeline ('enqueued' event) */
  detail: string
  /** a dead order_confirm of the order runs again (the nonce health check, when the mint is mined after all) */
  revive?: boolean
}

/**
 * Hands ONE order to an order_confirm job of its own (key order_confirm:<orderId>), in the
 * caller's transaction, under the order's row lock the caller holds: the cases the
 * signer's confirmer does not settle in bulk (a receipt that reverted or lacks the
 * Minted event, a nonce used with no receipt of ours, a mined mint nobody follows). That
 * job looks once, settles the order or hands it back to the confirmer, and otherwise
 * fails like any job: retried, then a dead letter on the order's timeline, which the
 * admin retries or cancels (docs/decisions/030-one-confirmer-per-signer.md).
 */
export async function confirmOrderAlone(
  tx: Tx,
  ctx: WorkerContext,
  { orderId, actor, detail, revive = false }: ConfirmOrderAloneParameters,
): Promise<EnsureJobReturnType> {
  return ensureJob(tx, {
    task: TASK.orderConfirm,
    jobKey: orderConfirmJobKey(orderId),
    payload: { orderId } satisfies OrderConfirmPayload,
    orderId,
    maxAttempts: ctx.settings.maxAttempts,
    actor,
    detail,
    revive,
  })
}
