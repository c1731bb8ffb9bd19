import type { Address, Hex } from 'viem'
import { TASK } from '@/lib/jobs/jobKeys'
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

/** The fields every send event of an order shares. */
export function sendEventOf(order: SendOrder, actor: string): Omit<RecordJobEventParameters, 'event'> {
  return { task: TASK.mintSend, orderId: order.orderId, jobId: order.jobId, attempt: order.attempt, actor }
}
