import type { MintStatus } from '@/db/schema/mint'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import type { ApiMintOrderSummary } from './apiTypes'

export type MintOrderSummaryRow = {
  id: string
  status: MintStatus
  toAddress: string
  amountWei: string
  vault: string
  requestedByEmail: string
  createdAt: Date
  txHash: string | null
}

/** A stored order as one item of GET /api/gold/mint. */
export function toApiMintOrderSummary(row: MintOrderSummaryRow): ApiMintOrderSummary {
  return {
    orderId: row.id,
    status: row.status,
    to: row.toAddress,
    amount: formatOrderAmount(row.amountWei),
    vault: row.vault,
    requestedBy: row.requestedByEmail,
    createdAt: row.createdAt.toISOString(),
    txHash: row.txHash,
  }
}
