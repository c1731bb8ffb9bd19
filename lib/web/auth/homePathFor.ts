import type { UserRole } from './SessionUser'

/**
 * Where a user lands after signing in, or on `/`: admins and auditors on the console,
 * approvers on the orders awaiting them, staff on their mints.
 */
export function homePathFor(role: UserRole): string {
  if (role === 'admin' || role === 'auditor') return '/admin'
  if (role === 'approver') return '/approvals'
  return '/mints'
}
