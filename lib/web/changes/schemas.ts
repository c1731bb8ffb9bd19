import { z } from 'zod'
import { controlChangeStatus } from '@/db/schema/controlChanges'
import { DESK_SIGNED_CHANGE_KINDS, onChainChangeParamsSchemas } from '@/lib/changes/onChainChanges'
import { isUuid } from '@/lib/mint/isUuid'

/** `{changeId}` of /api/admin/changes/{changeId}/...: anything else names no change (404). */
export const changeIdParamsSchema = z.object({ changeId: z.string().refine(isUuid) })

/** The longest rejection reason of a control change, as of an order's. */
export const MAX_CHANGE_REJECTION_REASON = 500

/** POST /api/admin/changes/{changeId}/reject: `{ reason }`, 1 to 500 characters, for the author and the audit. */
export const rejectChangeBodySchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1, 'say why the change is rejected')
    .max(MAX_CHANGE_REJECTION_REASON, `at most ${MAX_CHANGE_REJECTION_REASON} characters`),
})

/** GET /api/admin/changes?status=&cursor=&limit= */
export const listChangesQuerySchema = z.strictObject({
  status: z.enum(controlChangeStatus.enumValues).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
})

const onChainKind = z.enum(Object.keys(onChainChangeParamsSchemas) as [keyof typeof onChainChangeParamsSchemas])
/** the kinds POST /api/admin/changes proposes: a nonce's cancel has its own route (POST .../nonces/{nonce}/cancel) */
const proposedKind = onChainKind.exclude([...DESK_SIGNED_CHANGE_KINDS])
const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130,}$/, 'a hex signature of at least 65 bytes')
  .max(10_000)

/** POST /api/admin/changes/typed-data: the change an admin is about to sign (its params parsed by its kind) */
export const changeTypedDataBodySchema = z.strictObject({ kind: onChainKind, params: z.unknown() })

/**
 * POST /api/admin/changes: a change that lives on chain, with the id and deadline its typed data gave
 * and the author's EIP-712 signature of it
 */
export const proposeOnChainChangeBodySchema = z.strictObject({
  kind: proposedKind,
  params: z.unknown(),
  changeId: z.string().refine(isUuid, 'a uuid, as POST /api/admin/changes/typed-data gave it'),
  deadline: z.iso.datetime({ offset: true }),
  signature,
})

/** POST /api/admin/changes/{changeId}/confirm: a change that lives on chain carries the confirming admin's signature */
export const confirmChangeBodySchema = z.strictObject({ signature }).optional()
