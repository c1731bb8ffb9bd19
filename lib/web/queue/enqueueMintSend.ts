import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { currentTraceparent } from '@/lib/telemetry/traceparent'

export type QueueTransport = 'postgres' | 'sqs'

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
 * The order's mint_send, in the caller's transaction (invariant 1, the outbox): a
 * graphile-worker job (addJob), or with the SQS transport the outbox row that the worker's
 * relay sends to SQS (public.enqueue_mint_send_sqs, the same function the intake's
 * create_mint_order calls). Either way a job_records row and an 'enqueued' event, and the
 * job id the order keeps, and the active trace's `traceparent` in the job's payload (issue
 * 17: its attempts join the trace of the approval that enqueued it; none when tracing is off).
 */
export async function enqueueMintSend(tx: Tx, p: EnqueueMintSendParameters): Promise<{ jobId: bigint }> {
  if (p.transport === 'postgres') {
    return addJob(tx, {
      task: TASK.mintSend,
      payload: { orderId: p.orderId },
      jobKey: mintSendJobKey(p.orderId),
      maxAttempts: p.maxAttempts,
      orderId: p.orderId,
      actor: p.actor,
      detail: p.detail,
    })
  }
  const rows = await tx.execute<{ job_id: string }>(
    sql`select public.enqueue_mint_send_sqs(${p.orderId}::uuid, ${p.maxAttempts}::int, ${p.actor}, ${p.detail ?? null}::text, ${currentTraceparent() ?? null}::text)::text as job_id`,
  )
  const jobId = rows[0]?.job_id
  if (!jobId) throw new Error('enqueue_mint_send_sqs returned no job id')
  return { jobId: BigInt(jobId) }
}
