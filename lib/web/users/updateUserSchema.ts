import { z } from 'zod'
import { userRole } from '@/db/schema/users'
import { isUuid } from '@/lib/mint/isUuid'

/** PATCH /api/admin/users/{userId}: `{ role?, disabled? }`, at least one, nothing else. */
export const updateUserSchema = z
  .strictObject({
    role: z.enum(userRole.enumValues).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, { message: 'give role, disabled or both' })

/** The user id of the URL; anything else names no user (404). */
export const userIdParamsSchema = z.object({ userId: z.string().refine(isUuid) })
