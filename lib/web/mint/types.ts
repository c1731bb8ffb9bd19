import type { MintStatus } from '@/db/schema/mint'

// The API's data shapes (docs/api.md), shared by the route handlers, the server pages and
// the client components. Amounts and weights are decimal strings; times ISO 8601.

export type { MintStatus }

export const mintStatuses = [
  'awaiting_approval',
  'pending',
  'submitted',
  'confirmed',
  'failed',
  'rejected',
  'cancelled',
] as const satisfies readonly MintStatus[]

/** Statuses in which an order still changes on its own (the pages poll while any is shown). */
export const inFlightStatuses: readonly MintStatus[] = ['pending', 'submitted']

/**
 * 202 answer of POST /api/gold/mint; stored with the order and returned again on a replay.
 * An order at or above the approval threshold has no job yet: it awaits a second person.
 */
export type MintAcceptedResponse =
  | {
      orderId: string
      /** graphile-worker job id, as a string (it is a bigint) */
      jobId: string
      status: 'pending'
      statusUrl: string
    }
  | { orderId: string; jobId?: undefined; status: 'awaiting_approval'; statusUrl: string }

/**
 * One bar of an order's vault proof: THE bar shape of every view and API (the staff's
 * order, the admin's job detail). lib/web/mint/toMintBar.ts writes it from a stored row.
 */
export type MintBar = {
  serial: string
  refiner: string
  year: number
  /** troy ounces, 3 decimals */
  grossOz: string
  /** parts per thousand, e.g. "999.9" */
  fineness: string
  /** troy ounces, 3 decimals */
  fineOz: string
}

export type MintVaultProofResponse = {
  vault: string
  receiptRef: string
  documentSha256: string
  bars: MintBar[]
}

export type MintTxResponse = {
  hash: string | null
  nonce: number | null
  blockNumber: number | null
  /** null while unknown; the web never asks the chain for it */
  confirmations: number | null
}

export type MintTimelineEntry = { at: string; event: string; detail: string | null }

/** Four eyes: the second person's decision on an order that needed one. */
export type MintOrderDecision = {
  outcome: 'approved' | 'rejected'
  /** e-mail of the approver or admin who decided */
  by: string
  at: string
  /** why it was rejected; null for an approval */
  reason: string | null
}

/** GET /api/gold/mint/{orderId} */
export type MintOrderResponse = {
  orderId: string
  status: MintStatus
  to: string
  /** fine troy ounces = tokens, 3 decimals */
  amount: string
  /** e-mail of the user who requested it */
  requestedBy: string
  createdAt: string
  /** the approval or rejection by a second person; null while none was made (or none was needed) */
  decision: MintOrderDecision | null
  /** null until the worker has reserved a nonce or signed a transaction */
  tx: MintTxResponse | null
  vaultProof: MintVaultProofResponse
  timeline: MintTimelineEntry[]
}

/** One item of GET /api/gold/mint */
export type MintOrderSummary = {
  orderId: string
  status: MintStatus
  to: string
  amount: string
  vault: string
  requestedBy: string
  createdAt: string
  txHash: string | null
}

/** GET /api/gold/mint */
export type MintOrderListResponse = {
  items: MintOrderSummary[]
  nextCursor: string | null
}
