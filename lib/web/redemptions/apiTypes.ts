import type { RedemptionStatus } from '@/db/schema'

/** A deposit as GET /api/gold/deposits shows it. */
export type ApiDeposit = {
  txHash: string
  logIndex: number
  from: string
  /** fine oz, a decimal string */
  amount: string
  blockNumber: string
  status: 'unmatched' | 'matched' | 'redeemed'
  /** the redemption that matches it (not rejected or cancelled), if one does */
  redemptionId: string | null
  seenAt: string
}

export type ApiRedemptionBar = {
  serial: string
  refiner: string
  vault: string
  fineOz: string
  status: string
  orderId: string | null
}

/** A redemption as GET /api/gold/redemptions/{id} shows it. */
export type ApiRedemption = {
  redemptionId: string
  status: RedemptionStatus
  depositTx: string
  depositLogIndex: number
  holder: string
  /** fine oz, a decimal string */
  amount: string
  reference: string
  requestedBy: string
  bars: ApiRedemptionBar[]
  signatures: { signer: string; user: string; at: string }[]
  txHash: string | null
  blockNumber: string | null
  failureReason: string | null
  rejectionReason: string | null
  intentDeadline: string
  createdAt: string
  updatedAt: string
  burnedAt: string | null
  timeline: { at: string; event: string; detail: string | null }[]
}

export type ApiRedemptionSummary = Omit<ApiRedemption, 'bars' | 'signatures' | 'timeline'> & { bars: number }
