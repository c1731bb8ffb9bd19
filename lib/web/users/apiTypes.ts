import type { z } from 'zod'
import type { userSchema } from './responseSchemas'

/**
 * A user as the admin users API answers it (GET /api/admin/users, PATCH /api/admin/users/{id}); never a password hash.
 * Inferred from its zod schema (./responseSchemas.ts, which the OpenAPI document describes the routes with).
 */
export type ApiUser = z.infer<typeof userSchema>
