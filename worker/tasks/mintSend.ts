import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { MintSendPayload } from '@/lib/jobs/payloadTypes'
import { readMintOrderRow } from '../db/readMintOrderRow'
import type { SendBatcher } from '../mint/createSendBatcher'
import type { WorkerContext } from '../runtime/context'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'

/**
 * mint_send's payload as queued by the web with the order (lib/jobs/payloadTypes.ts),
 * checked when the job runs, by this task, its SQS face and a batch that claims such jobs.
 */
export const mintSendPayload = z.object({ orderId: z.guid() }) satisfies z.ZodType<MintSendPayload>

/**
 * mint_send, the graphile-worker face of the send path (docs/decisions/023-send-batcher.md).
 * The job hands its order to this process's batcher (one per worker process, startWorker),
 * which gathers the orders of the mint_send jobs running here into one batch at a time
 * through the reserve step
 * (sendClaimingBatch: the batch also claims queued mint_send jobs up to MINT_SEND_BATCH
 * and ends them itself), and ends as its own order's outcome says: sent or settled:
 * success; wait: a follow-up job later, no attempt spent; failed: thrown (permanent: dead
 * letter).
 */
export function mintSend(batcher: SendBatcher): TaskDefinition<MintSendPayload> {
  return {
    name: TASK.mintSend,
    payload: mintSendPayload,
    orderIdOf: (p) => p.orderId,
    run: async (ctx, job) => {
      const { orderId } = job.payload
      const own = await batcher.send({ orderId, jobId: job.jobId, attempt: job.attempt }, job.signal)
      if (own.kind === 'failed') throw own.error
      if (own.kind === 'wait')
        await handOver(ctx, job, { delayMs: own.retryInMs, detail: `${own.reason}: look again in ${own.retryInMs} ms` })
      else
        job.log.info(
          {
            outcome: own.kind,
            ...(own.kind === 'sent' ? { hash: own.hash, nonce: own.nonce.toString() } : { status: own.status }),
          },
          'mint_send done',
        )
    },
  }
}

/** Waits without spending an attempt: the job hands over to a new mint_send later, under the order's lock. */
async function handOver(
  ctx: WorkerContext,
  job: TaskRun<MintSendPayload>,
  p: { delayMs: number; detail: string },
): Promise<void> {
  const { orderId } = job.payload
  await ctx.db.transaction(async (tx) => {
    await readMintOrderRow(tx, { orderId, lock: true })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.mintSend,
      jobKey: mintSendJobKey(orderId),
      payload: { orderId },
      orderId,
      runAt: new Date(Date.now() + p.delayMs),
      maxAttempts: job.maxAttempts,
      actor: job.actor,
      detail: p.detail,
    })
  })
}
