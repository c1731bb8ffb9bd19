import { z } from 'zod'
import { controlChangeStatus } from '@/db/schema/controlChanges'
import { allowedRecipientSchema, mintLimitsSchema, removedRecipientSchema } from '@/lib/controls/responseSchemas'
import { typedDataAnswerSchema } from '@/lib/web/approvals/typedDataAnswerSchema'
import { wholeNumberStringSchema } from '@/lib/web/http/decimalStringSchemas'
import { signingStateSchema } from '@/lib/web/signingSwitch/responseSchemas'
import { userSchema } from '@/lib/web/users/responseSchemas'

/**
 * The answers of the control-change routes as zod schemas: lib/web/changes/apiTypes.ts infers its types from them,
 * and the OpenAPI document (lib/web/openapi) describes the routes with them. Times ISO 8601, people by email.
 */

/** The 202 answer of a route whose change now awaits a second admin. */
export const controlChangeAcceptedSchema = z
  .object({ changeId: z.string(), status: z.literal('awaiting_second_admin') })
  .meta({ id: 'ControlChangeAccepted' })

/**
 * A change's params as stored: every kind's params (lib/web/changes/controlChangeParams.ts) are one flat object of
 * strings (addresses, fine oz), numbers (counts) and nulls (a limit unset, a vault without custodian)
 */
export const controlChangeParamsAnswerSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
)

/** One control change. */
export const controlChangeSchema = z
  .object({
    changeId: z.string(),
    /** `recipient.add`, `recipient.remove`, `limits.set`, `user.role`, and lib/changes/onChainChanges.ts's kinds */
    kind: z.string(),
    /** the kind's params as asked for */
    params: controlChangeParamsAnswerSchema,
    /** what it changes, as a sentence for people */
    summary: z.string(),
    status: z.enum(controlChangeStatus.enumValues),
    requestedBy: z.string(),
    requestedAt: z.string(),
    /** the second admin who confirmed or rejected it; null while it awaits */
    decidedBy: z.string().nullable(),
    decidedAt: z.string().nullable(),
    /** why it was rejected */
    reason: z.string().nullable(),
    /** a change that lives on chain: until when its admins may sign it, else null */
    deadline: z.string().nullable(),
    /** a change that lives on chain: its applyControlChange transaction once mined with its confirmations */
    txHash: z.string().nullable(),
    /** why its send failed (status failed) */
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'ControlChange' })

/** GET /api/admin/changes */
export const controlChangeListSchema = z.object({
  items: z.array(controlChangeSchema),
  nextCursor: z.string().nullable(),
})

/**
 * What a desk change's apply step answers once confirmed: the recipient added or removed, the limits, the user, the
 * stop switch resumed
 */
export const controlChangeResultSchema = z.union([
  allowedRecipientSchema,
  removedRecipientSchema,
  mintLimitsSchema,
  userSchema,
  signingStateSchema,
])

/**
 * POST /api/admin/changes/{changeId}/confirm: the change, applied, with what its kind's operation answered; a change
 * that lives on chain: pending (sent by the worker once mined), `result` null
 */
export const confirmedControlChangeSchema = controlChangeSchema.extend({
  result: controlChangeResultSchema.nullable(),
})

/** A ControlChange as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export const changeTypedDataSchema = typedDataAnswerSchema(
  'ControlChange',
  z.object({
    changeId: z.string(),
    action: z.string(),
    /** the action's ABI-encoded params, hex */
    params: z.string(),
    /** Unix seconds */
    deadline: wholeNumberStringSchema,
  }),
)

/** POST /api/admin/changes/typed-data: what the author signs, with the id and deadline to propose it under. */
export const changeToSignSchema = z.object({
  changeId: z.string(),
  deadline: z.string(),
  typedData: changeTypedDataSchema,
  /** GoldMinter's admin threshold */
  required: z.number().int(),
})

/** GET /api/admin/changes/{changeId}/approval: the change's typed data, GoldMinter's threshold, its signatures. */
export const changeApprovalSchema = z.object({
  typedData: changeTypedDataSchema,
  required: z.number().int(),
  signatures: z.array(z.object({ signer: z.string(), user: z.string(), at: z.string() })),
})
