import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import type { ApiMintOrder, ApiMintOrderDecision, ApiMintTx } from './apiTypes'
import type { MintOrderRecord } from './readMintOrder'

// The boundary where a stored order (read by readMintOrder, its bars already in the one
// bar format) becomes API data (GET /api/gold/mint/{orderId}). Amounts are exact
// strings, never through a float.

/** the order's latest transaction in chain_txs, when the worker has signed one */
export type MintChainTxRow = { hash: string; nonce: bigint; minedBlock: bigint | null }

export type MintTimelineRow = { at: Date; event: string; detail: string | null }

export type ToApiMintOrderParameters = {
  order: MintOrderRecord
  latestTx: MintChainTxRow | null
  /** the confirmation count the worker stored for the mined block, if any */
  confirmations: number | null
  timeline: MintTimelineRow[]
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
