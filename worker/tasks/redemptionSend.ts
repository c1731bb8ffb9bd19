import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { redemptionSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { RedemptionSendPayload } from '@/lib/jobs/payloadTypes'
import { lockRedemptions } from '../db/lockRedemptions'
import { sendOperations } from '../mint/sendOperations'
import { redemptionKind } from '../operations/redemptionKind'
import type { TaskDefinition } from '../runtime/runTask'

/** redemption_send's payload as queued by the web when the last approver signs a redemption */
export const redemptionSendPayload = z.object({ redemptionId: z.guid() }) satisfies z.ZodType<RedemptionSendPayload>

/**
 * redemption_send: one signed redemption's burn through the one send path (sendOperations with the redemption
 * kind, docs/decisions/055-redemptions.md): its approvers' signatures verified again, a nonce of the worker's
 * signer, signed by KMS, stored, broadcast; the signer's confirmer follows it to its confirmations and marks it
 * burned. Ends as its outcome says: sent or settled: success; wait (the stop switch, a paused token): a follow-up
 * job later, no attempt spent; failed: thrown (permanent: dead letter, the redemption failed).
 */
export const redemptionSend: TaskDefinition<RedemptionSendPayload> = {
  name: TASK.redemptionSend,
  payload: redemptionSendPayload,
  orderIdOf: (p) => p.redemptionId,
  run: async (ctx, job) => {
    const { redemptionId } = job.payload
    const outcomes = await sendOperations(ctx, {
      kind: redemptionKind,
      orders: [{ orderId: redemptionId, jobId: job.jobId, attempt: job.attempt }],
      actor: job.actor,
      signal: job.signal,
    })
    const own = outcomes.get(redemptionId)
    if (!own) throw new Error(`the send path said nothing of redemption ${redemptionId}`)
    if (own.kind === 'failed') throw own.error
    if (own.kind === 'wait') {
      await ctx.db.transaction(async (tx) => {
        await lockRedemptions(tx, { ids: [redemptionId], lock: true })
        await enqueueFollowUp(tx, {
          currentJobId: job.jobId,
          task: TASK.redemptionSend,
          jobKey: redemptionSendJobKey(redemptionId),
          payload: { redemptionId },
          orderId: redemptionId,
          runAt: new Date(Date.now() + own.retryInMs),
          maxAttempts: job.maxAttempts,
          actor: job.actor,
          detail: `${own.reason}: look again in ${own.retryInMs} ms`,
        })
      })
      return
    }
    job.log.info(
      { outcome: own.kind, ...(own.kind === 'sent' ? { hash: own.hash, nonce: own.nonce.toString() } : {}) },
      'redemption_send done',
    )
  },
}
