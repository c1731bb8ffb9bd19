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
export type ApiMintAccepted =
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
 * order, the admin's job detail). lib/web/mint/toApiMintBar.ts writes it from a stored row.
 */
export type ApiMintBar = {
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

export type ApiMintVaultProof = {
  vault: string
  receiptRef: string
  documentSha256: string
  bars: ApiMintBar[]
}

export type ApiMintTx = {
  hash: string | null
  nonce: number | null
  blockNumber: number | null
  /** null while unknown; the web never asks the chain for it */
  confirmations: number | null
}

export type ApiMintTimelineEntry = { at: string; event: string; detail: string | null }

/** Four eyes: the second person's decision on an order that needed one. */
export type ApiMintOrderDecision = {
  outcome: 'approved' | 'rejected'
  /** e-mail of the approver or admin who decided */
  by: string
  at: string
  /** why it was rejected; null for an approval */
  reason: string | null
}

/** GET /api/gold/mint/{orderId} */
export type ApiMintOrder = {
  orderId: string
  status: MintStatus
  to: string
  /** fine troy ounces = tokens, 3 decimals */
  amount: string
  /** e-mail of the user who requested it */
  requestedBy: string
  createdAt: string
  /** the approval or rejection by a second person; null while none was made (or none was needed) */
  decision: ApiMintOrderDecision | null
  /** null until the worker has reserved a nonce or signed a transaction */
  tx: ApiMintTx | null
  vaultProof: ApiMintVaultProof
  timeline: ApiMintTimelineEntry[]
}

/** One item of GET /api/gold/mint */
export type ApiMintOrderSummary = {
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
export type ApiMintOrderList = {
  items: ApiMintOrderSummary[]
  nextCursor: string | null
}
