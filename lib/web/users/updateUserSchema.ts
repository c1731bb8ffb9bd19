import { z } from 'zod'
import { userRole } from '@/db/schema/users'
import { isUuid } from '@/lib/mint/isUuid'

/**
 * PATCH /api/admin/users/{userId}: `{ role }` (a change awaiting a second admin) or
 * `{ disabled }` (at once), one of them, nothing else.
 */
export const updateUserSchema = z
  .strictObject({
    role: z.enum(userRole.enumValues).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, { message: 'give role or disabled' })
  .refine((b) => b.role === undefined || b.disabled === undefined, {
    message: 'a role change awaits a second admin and disabling does not: send them one at a time',
  })

/** The user id of the URL; anything else names no user (404). */
export const userIdParamsSchema = z.object({ userId: z.string().refine(isUuid) })
