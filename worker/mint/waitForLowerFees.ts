import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { Fees } from '../chain/capFees'
import { getMintOrder } from '../db/getMintOrder'
import type { WorkerContext } from '../runtime/context'
import type { TaskRun } from '../runtime/runTask'
import { recordFeeCapped } from './recordFeeCapped'

export type WaitForLowerFeesParameters = {
  /** why (capFees's reason) */
  reason: string
  /** what the chain asked for */
  wanted: Fees & { baseFeePerGas: bigint }
}

/**
 * A mint_send that the fee ceiling holds back BEFORE anything is signed (no nonce taken:
 * none to lose): 'fee_capped' in the timeline, and the job hands over to a new mint_send a
 * little later (enqueueFollowUp, under the order's row lock), as mint_confirm does when it
 * polls. No attempt is spent and nothing heads for the dead letters, however long the fees
 * stay high; the wait shows in the fee-capped gauge (lib/ops/countFeeCappedOrders.ts).
 */
export async function waitForLowerFees(ctx: WorkerContext, job: TaskRun<{ orderId: string }>, { reason, wanted }: WaitForLowerFeesParameters): Promise<void> {
  const { orderId } = job.payload
  const delayMs = ctx.settings.feeCappedRetryMs
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await recordFeeCapped(tx, {
      task: TASK.mintSend,
      orderId,
      jobId: job.jobId,
      attempt: job.attempt,
      actor: job.actor,
      detail: `${reason}: nothing signed, the mint waits for lower fees`,
      data: {
        baseFeePerGas: wanted.baseFeePerGas.toString(),
        maxFeePerGas: wanted.maxFeePerGas.toString(),
        maxPriorityFeePerGas: wanted.maxPriorityFeePerGas.toString(),
      },
    })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.mintSend,
      jobKey: mintSendJobKey(orderId),
      payload: { orderId },
      orderId,
      runAt: new Date(Date.now() + delayMs),
      maxAttempts: job.maxAttempts,
      actor: job.actor,
      detail: `fee ceiling: look at the fees again in ${delayMs} ms`,
    })
  })
  job.log.warn({ reason, baseFeePerGas: wanted.baseFeePerGas.toString(), retryInMs: delayMs }, 'fee ceiling: mint held back, nothing signed')
}
