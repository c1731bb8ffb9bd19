import { z } from 'zod'
import { controlChangeStatus } from '@/db/schema/controlChanges'
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
