import { z } from 'zod'
import { userRole } from '@/db/schema/users'

/**
 * The answers of the admin users routes as zod schemas: lib/web/users/apiTypes.ts infers ApiUser from them, and the
 * OpenAPI document (lib/web/openapi) describes the routes with them.
 */

/** A user as GET /api/admin/users and PATCH /api/admin/users/{id} answer it; never a password hash. */
export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(userRole.enumValues),
    disabled: z.boolean(),
    /** bumped on every role change or disable: sessions issued before it no longer stand */
    sessionVersion: z.number().int(),
    /** the OIDC issuer this user is bound to (first SSO sign-in), or null */
    oidcIssuer: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'User' })

/** GET /api/admin/users */
export const userListSchema = z.object({ items: z.array(userSchema) })
