import type { ApiMintBar } from '@/lib/web/mint/apiTypes'

// The approvals page's data (app/(staff)/approvals): what each order waiting for a
// second person asks for, for whom, backed by which bars, requested by whom and when.

export type OrderAwaitingApproval = {
  orderId: string
  /** fine troy ounces = tokens, 3 decimals */
  amount: string
  /** the recipient */
  to: string
  vault: string
  receiptRef: string
  documentSha256: string
  /** e-mail of the requester */
  requestedBy: string
  createdAt: string
  /** the viewer requested it: shown, but they may not decide on it (four eyes) */
  mine: boolean
  /** in request order, in the one bar format */
  bars: ApiMintBar[]
}

export type OrdersAwaitingApproval = {
  items: OrderAwaitingApproval[]
  /** orders awaiting approval beyond those listed (the oldest are listed first) */
  more: number
}
