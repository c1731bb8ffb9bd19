import type { z } from 'zod'
import type { ControlChangeStatus } from '@/db/schema/controlChanges'
import type { controlChangeAcceptedSchema } from './responseSchemas'

/**
 * The JSON shapes of the control changes (docs/api.md "Control changes need a second
 * admin"), as sent on the wire: times ISO 8601, people by email.
 */

/** The 202 answer of a route whose change now awaits a second admin. */
export type ApiControlChangeAccepted = z.infer<typeof controlChangeAcceptedSchema>

/** One control change. */
export type ApiControlChange = {
  changeId: string
  /** `recipient.add`, `recipient.remove`, `limits.set`, `user.role`, and the kinds of lib/changes/onChainChanges.ts */
  kind: string
  /** the kind's params as asked for (lib/web/changes/controlChangeParams.ts) */
  params: Record<string, unknown>
  /** what it changes, as a sentence for people */
  summary: string
  status: ControlChangeStatus
  requestedBy: string
  requestedAt: string
  /** the second admin who confirmed or rejected it; null while it awaits */
  decidedBy: string | null
  decidedAt: string | null
  /** why it was rejected */
  reason: string | null
  /** a change that lives on chain: until when its admins may sign it, else null */
  deadline: string | null
  /** a change that lives on chain: its applyControlChange transaction once mined with its confirmations */
  txHash: string | null
  /** why its send failed (status failed) */
  failureReason: string | null
}

/** A ControlChange as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export type ApiChangeTypedData = {
  domain: { name: string; version: string; chainId: string; verifyingContract: string }
  types: { ControlChange: { name: string; type: string }[] }
  primaryType: 'ControlChange'
  message: { changeId: string; action: string; params: string; deadline: string }
}

/** POST /api/admin/changes/typed-data: what the author signs, with the id and deadline to propose it under. */
export type ApiChangeToSign = { changeId: string; deadline: string; typedData: ApiChangeTypedData; required: number }

/** GET /api/admin/changes/{changeId}/approval: the change's typed data, GoldMinter's threshold, its signatures. */
export type ApiChangeApproval = {
  typedData: ApiChangeTypedData
  required: number
  signatures: { signer: string; user: string; at: string }[]
}

/** GET /api/admin/changes */
export type ApiControlChangeList = { items: ApiControlChange[]; nextCursor: string | null }
