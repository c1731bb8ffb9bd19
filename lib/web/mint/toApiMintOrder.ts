import type { FailureReason } from '@/lib/errors/jobs'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { failureReasonSentence } from '@/lib/notifications/describeFailureReason'
import { publicFailureReason } from '@/lib/notifications/publicFailureReason'
import type { ApiMintOrder, ApiMintOrderDecision, ApiMintOrderOutcome, ApiMintTx } from './apiTypes'
import type { MintOrderRecord } from './readMintOrder'

// The boundary where a stored order (read by readMintOrder, its bars already in the one
// bar format) becomes API data (GET /api/gold/mint/{orderId}). Amounts are exact
// strings, never through a float.

/** the order's latest transaction in chain_txs, when the worker has signed one */
export type MintChainTxRow = { hash: string; nonce: bigint; minedBlock: bigint | null }

export type MintTimelineRow = { at: Date; event: string; detail: string | null }

/**
 * What says how a failed or cancelled order ended: its latest `mint.failed` event for that status (the reason code
 * and lastError in its payload), and the admin's 'cancelled' timeline event
 */
export type MintEndingRows = {
  failedEvent: { payload: unknown; at: Date } | null
  cancelled: { actor: string | null; at: Date } | null
}

export type ToApiMintOrderParameters = {
  order: MintOrderRecord
  latestTx: MintChainTxRow | null
  /** the confirmation count the worker stored for the mined block, if any */
  confirmations: number | null
  timeline: MintTimelineRow[]
  /** read for a failed or cancelled order; omitted: none recorded */
  ending?: MintEndingRows
}

export function toApiMintOrder(p: ToApiMintOrderParameters): ApiMintOrder {
  const { order } = p
  return {
    orderId: order.id,
    status: order.status,
    to: order.toAddress,
    amount: formatOrderAmount(order.amountWei),
    requestedBy: order.requestedByEmail,
    createdAt: order.createdAt.toISOString(),
    decision: toDecision(order),
    outcome: toOutcome(order, p.ending ?? { failedEvent: null, cancelled: null }),
    tx: toTx(p),
    vaultProof: {
      vault: order.vault,
      receiptRef: order.receiptRef,
      documentSha256: order.documentSha256,
      bars: order.bars,
    },
    timeline: p.timeline.map((row) => ({ at: row.at.toISOString(), event: row.event, detail: row.detail })),
  }
}

function toDecision(order: MintOrderRecord): ApiMintOrderDecision | null {
  if (order.approvedByEmail !== null && order.approvedAt !== null) {
    return { outcome: 'approved', by: order.approvedByEmail, at: order.approvedAt.toISOString(), reason: null }
  }
  if (order.rejectedByEmail !== null && order.rejectedAt !== null) {
    return {
      outcome: 'rejected',
      by: order.rejectedByEmail,
      at: order.rejectedAt.toISOString(),
      reason: order.rejectionReason,
    }
  }
  return null
}

/**
 * A failed order's reason is the code its mint.failed event holds (`unspecified` without one), never the admin's text
 * (failure_reason); a rejection is the approver's, with their words; a cancel the admin's, from its timeline event.
 */
function toOutcome(order: MintOrderRecord, ending: MintEndingRows): ApiMintOrderOutcome | null {
  const at = (d: Date | null | undefined) => (d ?? order.updatedAt).toISOString()
  if (order.status === 'failed') {
    const payload = isRecord(ending.failedEvent?.payload) ? ending.failedEvent.payload : {}
    const reason = publicFailureReason(payload.reason)
    const lastError = payload.lastError === undefined ? null : publicFailureReason(payload.lastError)
    return {
      status: 'failed',
      reason,
      lastError,
      text: sentenceOf(reason, lastError),
      by: null,
      at: at(ending.failedEvent?.at),
      note: null,
    }
  }
  if (order.status === 'rejected') {
    return {
      status: 'rejected',
      reason: 'rejected',
      lastError: null,
      text: sentenceOf('rejected', null),
      by: order.rejectedByEmail,
      at: at(order.rejectedAt),
      note: order.rejectionReason,
    }
  }
  if (order.status === 'cancelled') {
    return {
      status: 'cancelled',
      reason: 'cancelled',
      lastError: null,
      text: sentenceOf('cancelled', null),
      by: ending.cancelled?.actor ?? null,
      at: at(ending.cancelled?.at),
      note: null,
    }
  }
  return null
}

/** "Every attempt failed (the last: the node refused the transaction)." */
function sentenceOf(reason: FailureReason, lastError: FailureReason | null): string {
  const first = failureReasonSentence(reason)
  const text = first.charAt(0).toUpperCase() + first.slice(1)
  return lastError === null ? `${text}.` : `${text} (the last: ${failureReasonSentence(lastError)}).`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function toTx({ order, latestTx, confirmations }: ToApiMintOrderParameters): ApiMintTx | null {
  const hash = order.txHash ?? latestTx?.hash ?? null
  const nonce = order.nonce ?? latestTx?.nonce ?? null
  if (hash === null && nonce === null) return null
  const blockNumber = order.blockNumber ?? latestTx?.minedBlock ?? null
  return {
    hash,
    // nonces and block numbers are counters far below 2^53, not amounts
    nonce: nonce === null ? null : Number(nonce),
    blockNumber: blockNumber === null ? null : Number(blockNumber),
    confirmations,
  }
}
