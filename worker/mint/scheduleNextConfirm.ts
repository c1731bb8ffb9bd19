import { deleteJobRow } from '@/lib/jobs/deleteJobRow'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { SIGNER_CONFIRM_PRIORITY, signerConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import { countFollowedOrders } from '../db/countFollowedOrders'
import { lockConfirmer } from '../db/lockConfirmer'
import type { WorkerContext } from '../runtime/context'
import type { TaskRun } from '../runtime/runTask'
import type { SignerConfirmPayload } from '../tasks/signerConfirm'

export type ScheduleNextConfirmParameters = {
  suspects: readonly string[]
  head: bigint
  /** when the successor runs: 0 after a full run (at once), CONFIRM_POLL_MS otherwise */
  delayMs: number
}

export type ScheduleNextConfirmReturnType = {
  following: number
  /** when the successor is due (none: the confirmer ended) */
  runAt?: Date
}

/**
 * Ends a pass of the signer's signer_confirm, under the signer's confirmer lock (the one
 * startConfirming takes): while the signer has submitted orders (that are not dead
 * letters of their own), it hands over to its successor `delayMs` later
 * (enqueueFollowUp: same key, its own queue row deleted in the same transaction, no
 * attempt spent, ahead of waiting sends); with none left it deletes its own queue row,
 * so the next startConfirming adds a new confirmer instead of counting on this one.
 */
export async function scheduleNextConfirm(
  ctx: WorkerContext,
  job: TaskRun<SignerConfirmPayload>,
  { suspects, head, delayMs }: ScheduleNextConfirmParameters,
): Promise<ScheduleNextConfirmReturnType> {
  const { signer } = job.payload
  return ctx.db.transaction(async (tx) => {
    await lockConfirmer(tx, { signerAddress: signer })
    const following = await countFollowedOrders(tx, { signerAddress: signer })
    if (following === 0) {
      await deleteJobRow(tx, { jobId: job.jobId })
      return { following }
    }
    const runAt = new Date(Date.now() + delayMs)
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.signerConfirm,
      jobKey: signerConfirmJobKey(signer),
      payload: { signer, suspects: [...suspects], head: head.toString() } satisfies SignerConfirmPayload,
      runAt,
      priority: SIGNER_CONFIRM_PRIORITY,
      maxAttempts: ctx.settings.maxAttempts,
      actor: job.actor,
      detail: `${following} order(s) of ${signer} in flight: look again in ${delayMs} ms`,
    })
    return { following, runAt }
  })
}
