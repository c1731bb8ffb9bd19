import type { AddJobParameters, QueueTransport } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { MintSendPayload } from '@/lib/jobs/payloadTypes'

export type MintSendJobParameters = {
  orderId: string
  /** attempts of the job: the caller's configuration (MAX_ATTEMPTS) */
  maxAttempts: number
  /** who enqueues it, for the timeline */
  actor: string
  /** the 'enqueued' event's detail */
  detail?: string | null
  /** QUEUE_TRANSPORT */
  transport: QueueTransport
}

/**
 * An order's mint_send job: its task, payload and key, once for every place that adds one
 * (the approval through lib/web/queue/enqueueMintSend, the intake through create_mint_order).
 */
export function mintSendJob(p: MintSendJobParameters): AddJobParameters {
  return {
    task: TASK.mintSend,
    payload: { orderId: p.orderId } satisfies MintSendPayload,
    jobKey: mintSendJobKey(p.orderId),
    maxAttempts: p.maxAttempts,
    orderId: p.orderId,
    actor: p.actor,
    detail: p.detail,
    transport: p.transport,
  }
}
