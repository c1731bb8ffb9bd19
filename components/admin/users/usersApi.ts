import type { UserRole } from '@/lib/web/auth/SessionUser'
import type { ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'
import { ApiError } from '@/lib/web/errors/api'
import type { ApiUser } from '@/lib/web/users/apiTypes'

/**
 * The users page's one boundary with the API: PATCH /api/admin/users/{id}, throwing ApiError (its code, e.g.
 * self_lockout, and message) on a refusal. A role change answers the change awaiting a second admin; a
 * disable or enable, the user as it now is.
 */
export function patchUser(id: string, change: { role: UserRole }): Promise<ApiControlChangeAccepted>
export function patchUser(id: string, change: { disabled: boolean }): Promise<ApiUser>
export async function patchUser(
  id: string,
  change: { role: UserRole } | { disabled: boolean },
): Promise<ApiControlChangeAccepted | ApiUser> {
  const res = await fetch(`/api/admin/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    cache: 'no-store',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(change),
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as ApiControlChangeAccepted | ApiUser
}
