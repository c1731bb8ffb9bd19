import { z } from 'zod'
import { complianceAction, complianceStatus } from '@/db/schema/compliance'
import { typedDataAnswerSchema } from '@/lib/web/approvals/typedDataAnswerSchema'
import { wholeNumberStringSchema } from '@/lib/web/http/decimalStringSchemas'

/**
 * The answers of the compliance routes (docs/api.md "Compliance and the stop switch") as zod schemas:
 * lib/web/compliance/apiTypes.ts infers its types from them, and the OpenAPI document (lib/web/openapi) describes the
 * routes with them. Times ISO 8601, people by email, addresses checksummed, block numbers decimal strings.
 */

/** The 202 answer of a freeze or unfreeze of one `address`, and of a pause or unpause. */
export const complianceAcceptedSchema = z.object({ operationId: z.string(), status: z.literal('awaiting_approval') })

/** The 202 answer of a freeze or unfreeze of `addresses`: one operation per address, sharing `batchId`. */
export const complianceBatchAcceptedSchema = z.object({
  batchId: z.string(),
  operations: z.array(
    z.object({ operationId: z.string(), account: z.string(), status: z.literal('awaiting_approval') }),
  ),
})

/** The 202 answer of POST /api/admin/compliance/{freeze,unfreeze,pause,unpause} */
export const complianceRequestedSchema = z.union([complianceAcceptedSchema, complianceBatchAcceptedSchema])

/** One signature of an operation's intent: the key, the user it is bound to, when. */
export const complianceSignatureSchema = z.object({ signer: z.string(), user: z.string(), at: z.string() })

/** One event of an operation's timeline (job_events of its id). */
export const complianceEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  event: z.string(),
  task: z.string(),
  actor: z.string(),
  detail: z.string().nullable(),
})

/** One compliance operation with its timeline. */
export const complianceOperationSchema = z
  .object({
    operationId: z.string(),
    action: z.enum(complianceAction.enumValues),
    /** the frozen or unfrozen account; null for pause and unpause */
    account: z.string().nullable(),
    reason: z.string(),
    batchId: z.string().nullable(),
    status: z.enum(complianceStatus.enumValues),
    requestedBy: z.string(),
    requestedAt: z.string(),
    /** until when its approvers may sign and GoldMinter accepts it */
    deadline: z.string(),
    signatures: z.array(complianceSignatureSchema),
    /** its setFrozen or setPaused transaction (set once mined with its confirmations, or when known on chain) */
    txHash: z.string().nullable(),
    blockNumber: wholeNumberStringSchema.nullable(),
    appliedAt: z.string().nullable(),
    /** why its send failed (status failed) */
    failureReason: z.string().nullable(),
    rejectedBy: z.string().nullable(),
    rejectionReason: z.string().nullable(),
    timeline: z.array(complianceEventSchema),
  })
  .meta({ id: 'ComplianceOperation' })

/** The token's compliance state as the chain says. */
export const complianceChainSchema = z.object({
  tokenAddress: z.string(),
  paused: z.boolean(),
  /** the accounts GoldToken says are frozen now (isFrozen), found from its Frozen events */
  frozen: z.array(z.object({ address: z.string(), frozenAtBlock: wholeNumberStringSchema })),
  /** GoldMinter's complianceApprovals: approvers' signatures each operation needs */
  required: z.number().int(),
})

/**
 * GET /api/admin/compliance: the token as the chain says (null: the chain did not answer), the operations newest
 * first.
 */
export const complianceStateSchema = z.object({
  chain: complianceChainSchema.nullable(),
  operations: z.array(complianceOperationSchema),
})

/** An operation's intent as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export const complianceTypedDataSchema = z.union([
  typedDataAnswerSchema(
    'FreezeIntent',
    z.object({
      operationId: z.string(),
      account: z.string(),
      frozen: z.boolean(),
      /** Unix seconds */
      deadline: wholeNumberStringSchema,
    }),
  ),
  typedDataAnswerSchema(
    'PauseIntent',
    z.object({ operationId: z.string(), paused: z.boolean(), deadline: wholeNumberStringSchema }),
  ),
])

/** GET /api/admin/compliance/operations/{operationId}/approval */
export const complianceApprovalSchema = z.object({
  typedData: complianceTypedDataSchema,
  required: z.number().int(),
  signatures: z.array(complianceSignatureSchema),
})
