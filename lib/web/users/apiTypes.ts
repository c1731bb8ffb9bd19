import type { UserRole } from '@/db/schema/users'

/**
 * A user as the admin users API answers it (GET /api/admin/users, PATCH /api/admin/users/{id}); never a password hash.
 */
export type ApiUser = {
  id: string
  email: string
  name: string
  role: UserRole
  disabled: boolean
  /** bumped on every role change or disable: sessions issued before it no longer stand */
  sessionVersion: number
  /** the OIDC issuer this user is bound to (first SSO sign-in), or null */
  oidcIssuer: string | null
  createdAt: string
  updatedAt: string
}
