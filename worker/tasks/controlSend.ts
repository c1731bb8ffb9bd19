import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { controlSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { ControlSendPayload } from '@/lib/jobs/payloadTypes'
import { lockControlChanges } from '../db/lockControlChanges'
import { sendOperations } from '../mint/sendOperations'
import { controlChangeKind } from '../operations/controlChangeKind'
import type { TaskDefinition } from '../runtime/runTask'

/** control_send's payload as queued by the web when a second admin confirms an on-chain change */
export const controlSendPayload = z.object({ changeId: z.guid() }) satisfies z.ZodType<ControlSendPayload>

/**
 * control_send: one confirmed control change that lives on chain through the one send path
 * (sendOperations with the control change kind, docs/decisions/051-on-chain-control-changes.md): its admins' signatures
 * verified again, a nonce of the worker's signer, signed by KMS, stored, broadcast; the signer's
 * confirmer follows it to its confirmations and marks it applied. Ends as its outcome says: sent
 * or settled: success; wait: a follow-up job later, no attempt spent; failed: thrown (permanent:
 * dead letter, the change failed).
 */
export const controlSend: TaskDefinition<ControlSendPayload> = {
  name: TASK.controlSend,
  payload: controlSendPayload,
  orderIdOf: (p) => p.changeId,
  run: async (ctx, job) => {
    const { changeId } = job.payload
    const outcomes = await sendOperations(ctx, {
      kind: controlChangeKind,
      orders: [{ orderId: changeId, jobId: job.jobId, attempt: job.attempt }],
      actor: job.actor,
      signal: job.signal,
    })
    const own = outcomes.get(changeId)
    if (!own) throw new Error(`the send path said nothing of control change ${changeId}`)
    if (own.kind === 'failed') throw own.error
    if (own.kind === 'wait') {
      await ctx.db.transaction(async (tx) => {
        await lockControlChanges(tx, { ids: [changeId], lock: true })
        await enqueueFollowUp(tx, {
          currentJobId: job.jobId,
          task: TASK.controlSend,
          jobKey: controlSendJobKey(changeId),
          payload: { changeId },
          orderId: changeId,
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
      'control_send done',
    )
  },
}
