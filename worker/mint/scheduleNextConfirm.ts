import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { mintConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import { getMintOrder } from '../db/getMintOrder'
import type { WorkerContext } from '../runtime/context'
import type { ConfirmRun } from './confirmRun'

export type ScheduleNextConfirmParameters = {
  /** quiet checks so far: the delay grows with it */
  poll: number
}

/**
 * Ends a mint_confirm run by handing over to the next look (enqueueFollowUp, under the
 * order's row lock): quick at first, then backing off to 10 x CONFIRM_POLL_MS.
 */
export async function scheduleNextConfirm(ctx: WorkerContext, job: ConfirmRun, { poll }: ScheduleNextConfirmParameters): Promise<void> {
  const { orderId } = job.payload
  const base = ctx.settings.confirmPollMs
  const delayMs = Math.min(base * 2 ** Math.min(poll, 10), base * 10)
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.mintConfirm,
      jobKey: mintConfirmJobKey(orderId),
      payload: { orderId, poll },
      orderId,
      runAt: new Date(Date.now() + delayMs),
      maxAttempts: ctx.settings.maxAttempts,
      actor: job.actor,
      detail: `look again in ${delayMs} ms`,
    })
  })
}
