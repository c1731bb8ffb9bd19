import type { UserRole } from '@/lib/web/auth/SessionUser'

/**
 * Who reads every order, not only their own (docs/api.md): approvers, who decide on
 * others' requests, and admins. Staff read their own; any other role reads its own too.
 */
export function readsEveryOrder(role: UserRole): boolean {
  return role === 'approver' || role === 'admin'
}
