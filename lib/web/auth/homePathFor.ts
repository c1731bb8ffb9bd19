import type { UserRole } from './SessionUser'

/**
 * Where a user lands after signing in, or on `/`: admins on the console,
 * approvers on the orders awaiting them, staff on their mints.
 */
export function homePathFor(role: UserRole): string {
  if (role === 'admin') return '/admin'
  if (role === 'approver') return '/approvals'
  return '/mints'
}
