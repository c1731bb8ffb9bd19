import type { MintStatus } from '@/db/schema/mint'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { weiToOz } from '@/lib/money/weiToOz'
import type { MintOrderResponse, MintTxResponse } from './types'

// The one boundary where stored rows become API data (GET /api/gold/mint/{orderId}).
// Numerics arrive from Postgres as exact strings ('401.125', '999.90', wei as digits);
// they are re-read as bigint and written in the API's form, never through a float.

export type MintOrderRow = {
  id: string
  status: MintStatus
  toAddress: string
  amountWei: string
  vault: string
  receiptRef: string
  documentSha256: string
  requestedByEmail: string
  createdAt: Date
  nonce: bigint | null
  txHash: string | null
  blockNumber: bigint | null
}

export type MintBarRow = {
  serial: string
  refiner: string
  year: number
  grossOz: string
  fineness: string
  fineOz: string
}

/** the order's latest transaction in chain_txs, when the worker has signed one */
export type MintChainTxRow = { hash: string; nonce: bigint; minedBlock: bigint | null }

export type MintTimelineRow = { at: Date; event: string; detail: string | null }

export type ToMintOrderResponseParameters = {
  order: MintOrderRow
  bars: MintBarRow[]
  latestTx: MintChainTxRow | null
  /** the confirmation count the worker stored for the mined block, if any */
  confirmations: number | null
  timeline: MintTimelineRow[]
}

export function toMintOrderResponse(p: ToMintOrderResponseParameters): MintOrderResponse {
  const { order } = p
  return {
    orderId: order.id,
    status: order.status,
    to: order.toAddress,
    amount: weiToOz(BigInt(order.amountWei)),
    requestedBy: order.requestedByEmail,
    createdAt: order.createdAt.toISOString(),
    tx: toTx(p),
    vaultProof: {
      vault: order.vault,
      receiptRef: order.receiptRef,
      documentSha256: order.documentSha256,
      bars: p.bars.map((bar) => ({
        serial: bar.serial,
        refiner: bar.refiner,
        year: bar.year,
        grossOz: ounces(bar.grossOz),
        fineness: formatDecimal(parseDecimal(bar.fineness, { decimals: 2 }), { decimals: 2, minFraction: 1 }),
        fineOz: ounces(bar.fineOz),
      })),
    },
    timeline: p.timeline.map((row) => ({ at: row.at.toISOString(), event: row.event, detail: row.detail })),
  }
}

function toTx({ order, latestTx, confirmations }: ToMintOrderResponseParameters): MintTxResponse | null {
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

/** a numeric(12,3) weight as a 3-decimal string */
function ounces(value: string): string {
  return formatDecimal(parseDecimal(value, { decimals: 3 }), { decimals: 3, minFraction: 3 })
}
