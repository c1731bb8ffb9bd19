import type { ComplianceAction, ComplianceStatus } from '@/db/schema/compliance'

/**
 * The JSON shapes of the compliance operations (docs/api.md "Compliance and the stop switch"), as sent on the
 * wire: times ISO 8601, people by email, addresses checksummed.
 */

/** The 202 answer of a freeze or unfreeze of one `address`, and of a pause or unpause. */
export type ApiComplianceAccepted = { operationId: string; status: 'awaiting_approval' }

/** The 202 answer of a freeze or unfreeze of `addresses`: one operation per address, sharing `batchId`. */
export type ApiComplianceBatchAccepted = {
  batchId: string
  operations: { operationId: string; account: string; status: 'awaiting_approval' }[]
}

/** One signature of an operation's intent: the key, the user it is bound to, when. */
export type ApiComplianceSignature = { signer: string; user: string; at: string }

/** One event of an operation's timeline (job_events of its id). */
export type ApiComplianceEvent = {
  id: string
  at: string
  event: string
  task: string
  actor: string
  detail: string | null
}

/** One compliance operation with its timeline. */
export type ApiComplianceOperation = {
  operationId: string
  action: ComplianceAction
  /** the frozen or unfrozen account; null for pause and unpause */
  account: string | null
  reason: string
  batchId: string | null
  status: ComplianceStatus
  requestedBy: string
  requestedAt: string
  /** until when its approvers may sign and GoldMinter accepts it */
  deadline: string
  signatures: ApiComplianceSignature[]
  /** its setFrozen or setPaused transaction (set once mined with its confirmations, or when known on chain) */
  txHash: string | null
  blockNumber: string | null
  appliedAt: string | null
  /** why its send failed (status failed) */
  failureReason: string | null
  rejectedBy: string | null
  rejectionReason: string | null
  timeline: ApiComplianceEvent[]
}

/** The token's compliance state as the chain says. */
export type ApiComplianceChain = {
  tokenAddress: string
  paused: boolean
  /** the accounts GoldToken says are frozen now (isFrozen), found from its Frozen events */
  frozen: { address: string; frozenAtBlock: string }[]
  /** GoldMinter's complianceApprovals: approvers' signatures each operation needs */
  required: number
}

/**
 * GET /api/admin/compliance: the token as the chain says (null: the chain did not answer), the operations newest
 * first.
 */
export type ApiComplianceState = { chain: ApiComplianceChain | null; operations: ApiComplianceOperation[] }

/** An operation's intent as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export type ApiComplianceTypedData =
  | {
      domain: { name: string; version: string; chainId: string; verifyingContract: string }
      types: { FreezeIntent: { name: string; type: string }[] }
      primaryType: 'FreezeIntent'
      message: { operationId: string; account: string; frozen: boolean; deadline: string }
    }
  | {
      domain: { name: string; version: string; chainId: string; verifyingContract: string }
      types: { PauseIntent: { name: string; type: string }[] }
      primaryType: 'PauseIntent'
      message: { operationId: string; paused: boolean; deadline: string }
    }

/** GET /api/admin/compliance/operations/{operationId}/approval */
export type ApiComplianceApproval = {
  typedData: ApiComplianceTypedData
  required: number
  signatures: ApiComplianceSignature[]
}
