import type { Tx } from '@/db/client'
import { addJob, type QueueTransport } from '@/lib/jobs/addJob'
import { mintSendJob } from '@/lib/web/queue/mintSendJob'

export type EnqueueMintSendParameters = {
  /** QUEUE_TRANSPORT of the caller's configuration */
  transport: QueueTransport
  orderId: string
  maxAttempts: number
  actor: string
  /** the 'enqueued' event's detail */
  detail?: string | null
}

/**
 * The order's mint_send, in the caller's transaction (invariant 1, the outbox), through
 * addJob (public.enqueue_job, which the intake's create_mint_order calls too): a
 * graphile-worker job, or with the SQS transport the outbox row that the worker's relay
 * sends to SQS. Either way a job_records row and an 'enqueued' event, the job id the
 * order keeps, and the active trace's `traceparent` in the job's payload (its
 * attempts join the trace of the approval that enqueued it; none when tracing is off).
 */
export async function enqueueMintSend(tx: Tx, p: EnqueueMintSendParameters): Promise<{ jobId: bigint }> {
  return addJob(tx, mintSendJob(p))
}
