import type { UserRole } from '@/db/schema/users'

export type { UserRole }

/** The signed-in user as the web process sees it (from the next-auth JWT). */
export type SessionUser = { id: string; email: string; role: UserRole }

export const userRoles: readonly UserRole[] = ['staff', 'admin']

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (userRoles as readonly string[]).includes(value)
}
