import type { UserRole } from './SessionUser'

/** Where a user lands after signing in, or on `/`. */
export function homePathFor(role: UserRole): string {
  return role === 'admin' ? '/admin' : '/mints'
}
