import { isAddress, zeroAddress } from 'viem'
import { z } from 'zod'
import { complianceStatus } from '@/db/schema/compliance'
import { isUuid } from '@/lib/mint/isUuid'

/** The most addresses one freeze or unfreeze request carries (one operation each, sharing a batch id). */
export const MAX_COMPLIANCE_BATCH = 100

/** The longest reason of a compliance operation or of its rejection. */
export const MAX_COMPLIANCE_REASON = 500

const reason = z
  .string()
  .trim()
  .min(1, 'say why')
  .max(MAX_COMPLIANCE_REASON, `at most ${MAX_COMPLIANCE_REASON} characters`)

/** An account to freeze or unfreeze: a 0x address (any case), not the zero address; lower-cased. */
const account = z
  .string()
  .refine((a) => isAddress(a, { strict: false }), 'a 0x address of 20 bytes')
  .refine((a) => a.toLowerCase() !== zeroAddress, 'not the zero address')
  .transform((a) => a.toLowerCase())

/**
 * POST /api/admin/compliance/freeze and /unfreeze: `{ address, reason }` (one operation) or `{ addresses: [...],
 * reason }` (1 to 100 distinct addresses: one operation each, sharing a batch id), never both.
 */
export const freezeBodySchema = z
  .strictObject({
    address: account.optional(),
    addresses: z
      .array(account)
      .min(1, 'at least one address')
      .max(MAX_COMPLIANCE_BATCH, `at most ${MAX_COMPLIANCE_BATCH} addresses`)
      .refine((list) => new Set(list).size === list.length, 'each address once')
      .optional(),
    reason,
  })
  .refine((b) => (b.address === undefined) !== (b.addresses === undefined), {
    message: 'give either address or addresses',
    path: ['address'],
  })

export type FreezeBody = z.output<typeof freezeBodySchema>

/** POST /api/admin/compliance/pause and /unpause: `{ reason }`. */
export const pauseBodySchema = z.strictObject({ reason })

/** `{operationId}` of /api/admin/compliance/operations/{operationId}/...: anything else names no operation (404). */
export const operationIdParamsSchema = z.object({ operationId: z.string().refine(isUuid) })

/** POST .../approve: the approver's EIP-712 signature of the operation's intent. */
export const approveOperationBodySchema = z.strictObject({ signature: z.string().min(1).max(10_000) })

/** POST .../reject: why, 1 to 500 characters, for the requester and the audit. */
export const rejectOperationBodySchema = z.strictObject({ reason })

/** GET /api/admin/compliance?status=&limit=: the operations listed with the chain's state, newest first. */
export const complianceQuerySchema = z.strictObject({
  status: z.enum(complianceStatus.enumValues).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
})
