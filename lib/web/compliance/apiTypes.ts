import type { z } from 'zod'
import type {
  complianceAcceptedSchema,
  complianceApprovalSchema,
  complianceBatchAcceptedSchema,
  complianceChainSchema,
  complianceEventSchema,
  complianceOperationSchema,
  complianceSignatureSchema,
  complianceStateSchema,
  complianceTypedDataSchema,
} from './responseSchemas'

/**
 * The JSON shapes of the compliance operations (docs/api.md "Compliance and the stop switch"), as sent on the
 * wire, inferred from their zod schemas (./responseSchemas.ts, which the OpenAPI document describes the routes with);
 * the import is type-only. Times ISO 8601, people by email, addresses checksummed.
 */

/** The 202 answer of a freeze or unfreeze of one `address`, and of a pause or unpause. */
export type ApiComplianceAccepted = z.infer<typeof complianceAcceptedSchema>

/** The 202 answer of a freeze or unfreeze of `addresses`: one operation per address, sharing `batchId`. */
export type ApiComplianceBatchAccepted = z.infer<typeof complianceBatchAcceptedSchema>

/** One signature of an operation's intent: the key, the user it is bound to, when. */
export type ApiComplianceSignature = z.infer<typeof complianceSignatureSchema>

/** One event of an operation's timeline (job_events of its id). */
export type ApiComplianceEvent = z.infer<typeof complianceEventSchema>

/** One compliance operation with its timeline. */
export type ApiComplianceOperation = z.infer<typeof complianceOperationSchema>

/** The token's compliance state as the chain says. */
export type ApiComplianceChain = z.infer<typeof complianceChainSchema>

/** GET /api/admin/compliance: the token as the chain says (null: the chain did not answer), the operations. */
export type ApiComplianceState = z.infer<typeof complianceStateSchema>

/** An operation's intent as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export type ApiComplianceTypedData = z.infer<typeof complianceTypedDataSchema>

/** GET /api/admin/compliance/operations/{operationId}/approval */
export type ApiComplianceApproval = z.infer<typeof complianceApprovalSchema>
