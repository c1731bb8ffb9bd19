import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import type { SendBatcher } from '../mint/createSendBatcher'
import type { OperationRow } from '../operations/OperationKind'
import type { SendQueue } from '../operations/SendQueue'
import type { WorkerContext } from '../runtime/context'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'

export type SendTaskParameters<Row extends OperationRow, P extends Record<string, unknown>> = {
  queue: SendQueue<Row, P>
  /** this process's batcher of the kind (one per kind and process, startWorker) */
  batcher: SendBatcher
}

/**
 * A kind's send task, the graphile-worker face of the send path (docs/decisions/057-every-kind-batches.md): the job
 * hands its operation to the process's batcher of the kind, which gathers the operations of the kind's jobs running
 * here into one batch at a time through the reserve step (sendClaimingBatch: the batch also claims queued jobs of
 * the task up to MINT_SEND_BATCH and ends them itself), and ends as its own operation's outcome says: sent or
 * settled: success; wait (the stop switch, a paused token, the fee ceiling, every signer at its in-flight bound): a
 * follow-up job later, no attempt spent; failed: thrown (permanent: dead letter, the operation failed).
 */
export function sendTask<Row extends OperationRow, P extends Record<string, unknown>>({
  queue,
  batcher,
}: SendTaskParameters<Row, P>): TaskDefinition<P> {
  const task = queue.kind.sendTask
  return {
    name: task,
    payload: queue.payload,
    orderIdOf: queue.idOf,
    run: async (ctx, job) => {
      const id = queue.idOf(job.payload)
      const own = await batcher.send({ orderId: id, jobId: job.jobId, attempt: job.attempt }, job.signal)
      if (own.kind === 'failed') throw own.error
      if (own.kind === 'wait')
        await handOver(ctx, job, {
          queue,
          id,
          delayMs: own.retryInMs,
          detail: `${own.reason}: look again in ${own.retryInMs} ms`,
        })
      else
        job.log.info(
          {
            outcome: own.kind,
            ...(own.kind === 'sent' ? { hash: own.hash, nonce: own.nonce.toString() } : { status: own.status }),
          },
          `${task} done`,
        )
    },
  }
}

/** Waits without spending an attempt: the job hands over to a new one of its task later, under the row's lock. */
async function handOver<Row extends OperationRow, P extends Record<string, unknown>>(
  ctx: WorkerContext,
  job: TaskRun<P>,
  p: { queue: SendQueue<Row, P>; id: string; delayMs: number; detail: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await p.queue.kind.lock(tx, { ids: [p.id], lock: true })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: p.queue.kind.sendTask,
      jobKey: p.queue.jobKeyOf(p.id),
      payload: p.queue.payloadOf(p.id),
      orderId: p.id,
      runAt: new Date(Date.now() + p.delayMs),
      maxAttempts: job.maxAttempts,
      actor: job.actor,
      detail: p.detail,
    })
  })
}
