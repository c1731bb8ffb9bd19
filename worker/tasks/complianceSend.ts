import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { complianceSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { ComplianceSendPayload } from '@/lib/jobs/payloadTypes'
import { lockComplianceOperations } from '../db/lockComplianceOperations'
import { sendOperations } from '../mint/sendOperations'
import { complianceKind } from '../operations/complianceKind'
import type { TaskDefinition } from '../runtime/runTask'

/** compliance_send's payload as queued by the web when an approver's signature completes an operation */
export const complianceSendPayload = z.object({ operationId: z.guid() }) satisfies z.ZodType<ComplianceSendPayload>

/**
 * compliance_send: one signed freeze, unfreeze, pause or unpause through the one send path (sendOperations with
 * the compliance kind, docs/decisions/056-compliance-operations.md): its approvers' signatures verified again, a
 * nonce of the worker's signer, signed by KMS, stored, broadcast; the signer's confirmer follows it to its
 * confirmations and marks it applied. Ends as its outcome says: sent or settled: success; wait: a follow-up job
 * later, no attempt spent; failed: thrown (permanent: dead letter, the operation failed).
 */
export const complianceSend: TaskDefinition<ComplianceSendPayload> = {
  name: TASK.complianceSend,
  payload: complianceSendPayload,
  orderIdOf: (p) => p.operationId,
  run: async (ctx, job) => {
    const { operationId } = job.payload
    const outcomes = await sendOperations(ctx, {
      kind: complianceKind,
      orders: [{ orderId: operationId, jobId: job.jobId, attempt: job.attempt }],
      actor: job.actor,
      signal: job.signal,
    })
    const own = outcomes.get(operationId)
    if (!own) throw new Error(`the send path said nothing of compliance operation ${operationId}`)
    if (own.kind === 'failed') throw own.error
    if (own.kind === 'wait') {
      await ctx.db.transaction(async (tx) => {
        await lockComplianceOperations(tx, { ids: [operationId], lock: true })
        await enqueueFollowUp(tx, {
          currentJobId: job.jobId,
          task: TASK.complianceSend,
          jobKey: complianceSendJobKey(operationId),
          payload: { operationId },
          orderId: operationId,
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
      'compliance_send done',
    )
  },
}
