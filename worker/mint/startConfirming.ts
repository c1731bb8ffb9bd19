import type { Tx } from '@/db/client'
import { ensureJob } from '@/lib/jobs/ensureJob'
import { mintConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { WorkerContext } from '../runtime/context'

export type StartConfirmingParameters = {
  /** orders whose mint was just broadcast (status submitted, in the caller's transaction) */
  orderIds: readonly string[]
  /** the signer that sent them */
  signerAddress: string
  actor: string
}

/**
 * The hand-over from sending to confirming, in the caller's transaction (the one that
 * marks the orders submitted): whatever follows a broadcast mint to its confirmations
 * is started here, and only here.
 */
export async function startConfirming(tx: Tx, ctx: WorkerContext, { orderIds, actor }: StartConfirmingParameters): Promise<void> {
  for (const orderId of orderIds) {
    await ensureJob(tx, {
      task: TASK.mintConfirm,
      jobKey: mintConfirmJobKey(orderId),
      payload: { orderId },
      orderId,
      maxAttempts: ctx.settings.maxAttempts,
      actor,
    })
  }
}
