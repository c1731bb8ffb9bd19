import type { UserRole } from '@/lib/web/auth/SessionUser'

/**
 * Who reads every order, not only their own (docs/api.md): approvers, who decide on
 * others' requests, admins and auditors. Staff read their own.
 */
export function readsEveryOrder(role: UserRole): boolean {
  return role === 'approver' || role === 'admin' || role === 'auditor'
}
