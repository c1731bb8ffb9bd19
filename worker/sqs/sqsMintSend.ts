import { TASK } from '@/lib/jobs/jobKeys'
import type { MintSendPayload } from '@/lib/jobs/payloadTypes'
import type { SendBatcher } from '../mint/createSendBatcher'
import type { WorkerContext } from '../runtime/context'
import { mintSendPayload } from '../tasks/mintSend'
import type { SqsTask, SqsTaskContext } from './sqsMessageHandler'

/**
 * mint_send, the SQS face of the send path: the message's order goes
 * through the shared batcher into sendMintOrders (worker/mint), with the receive count as
 * its attempt; sqsMessageHandler runs the messages of a receive in the same tick, so their
 * orders go as one send batch. sent or settled: done (the message is deleted); wait (fee ceiling, every
 * signer at its in-flight bound): the message is sent again delayed and the received one
 * deleted, so no receive is spent; failed: thrown (permanent: dead letter).
 */
export function sqsMintSend<C extends SqsTaskContext = WorkerContext>(
  batcher: SendBatcher,
): SqsTask<C, MintSendPayload> {
  return {
    name: TASK.mintSend,
    payload: mintSendPayload,
    orderIdOf: (p) => p.orderId,
    run: async (_ctx, job) => {
      const outcome = await batcher.send(
        { orderId: job.payload.orderId, jobId: job.jobId, attempt: job.attempt },
        job.signal,
      )
      if (outcome.kind === 'failed') throw outcome.error
      if (outcome.kind === 'wait') {
        job.log.info(
          { reason: outcome.reason, retryInMs: outcome.retryInMs },
          'nothing signed now: the message is sent again later',
        )
        return { waitMs: outcome.retryInMs, reason: outcome.reason }
      }
      job.log.info(
        {
          outcome: outcome.kind,
          ...(outcome.kind === 'sent'
            ? { hash: outcome.hash, nonce: outcome.nonce.toString() }
            : { status: outcome.status }),
        },
        'mint_send done',
      )
    },
  }
}
