import type { Address, Hex } from 'viem'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'

/**
 * One order handed to the send path, with what labels its timeline events (jobId null: a transport without job ids).
 */
export type SendOrder = { orderId: string; jobId: bigint | null; attempt: number }

/**
 * What the send path did with one order, for the transport to act on:
 * - sent: stored, broadcast (or the node refused its fee cap: `underpriced`, the confirm
 *   side outbids it), order submitted, confirming started: done;
 * - settled: confirmed or cancelled already (or reconciled from the chain): done;
 * - wait: nothing signed for it now (fee ceiling, every signer at its in-flight bound):
 *   deliver it again after retryInMs without spending an attempt;
 * - failed: this attempt failed; permanent (isPermanentJobError) -> dead letter, else retry.
 */
export type SendOutcome =
  | {
      kind: 'sent'
      hash: Hex
      signerAddress: Address
      nonce: bigint
      broadcast: 'sent' | 'already_known' | 'underpriced'
    }
  | { kind: 'settled'; status: string }
  | { kind: 'wait'; reason: string; retryInMs: number }
  | { kind: 'failed'; error: unknown }

export type SendOutcomes = Map<string, SendOutcome>

/**
 * The fields every send event of an operation shares; `task`: the send task of its kind (OperationKind.sendTask).
 * The event's order_id column names the operation, whatever its kind.
 */
export function sendEventOf(p: {
  order: SendOrder
  actor: string
  task: string
}): Omit<RecordJobEventParameters, 'event'> {
  return { task: p.task, orderId: p.order.orderId, jobId: p.order.jobId, attempt: p.order.attempt, actor: p.actor }
}
