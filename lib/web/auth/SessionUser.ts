import type { UserRole } from '@/db/schema/users'

export type { UserRole }

/**
 * The signed-in user as the web process acts on it: the id from the session, the email and
 * role as the `users` row says on this request (lib/web/auth/verifySession.ts), never the
 * role the session was issued with.
 */
export type SessionUser = { id: string; email: string; role: UserRole }

export const userRoles: readonly UserRole[] = ['staff', 'approver', 'admin', 'auditor']

/** Who reads what an admin reads: the admins, and the auditors (who change nothing). */
export const ADMIN_READERS: readonly UserRole[] = ['admin', 'auditor']

/** Who reads every order (staff read their own): approvers, admins and auditors. */
export const ORDER_READERS: readonly UserRole[] = ['staff', 'approver', 'admin', 'auditor']

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (userRoles as readonly string[]).includes(value)
}
