import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type UserRole, users } from '@/db/schema/users'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import type { AppliedChange } from '@/lib/controls/appliedChange'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import { SelfLockoutError } from '@/lib/web/errors/users'
import type { ApiUser } from './apiTypes'
import { toApiUser, userColumns } from './userColumns'

export type UpdateUserParameters = {
  userId: string
  change: { role?: UserRole; disabled?: boolean }
  actor: AdminActor
  /** the control change this applies (a role change: its id and author), named in the audit row */
  appliedChange?: AppliedChange
}

/**
 * An admin changes a user's role (the apply step of a confirmed `user.role` change, in its
 * transaction) or disables (or enables) them. Each actual change bumps
 * `session_version`, so every session the user holds stops on its next request (docs/api.md
 * "Auth"), and writes one audit row (`user.role_change`, `user.disable`, `user.enable`)
 * in the same transaction. Asking for what already is changes nothing (no bump, no audit).
 * An admin may not disable themselves or take away their own admin role (409
 * `self_lockout`): another admin must. Unknown user: 404.
 */
export async function updateUser(
  db: DbOrTx,
  { userId, change, actor, appliedChange }: UpdateUserParameters,
): Promise<ApiUser> {
  if (!isUuid(userId)) throw new NotFoundError({ what: 'User' })
  return db.transaction(async (tx) => {
    const [current] = await tx.select(userColumns).from(users).where(eq(users.id, userId)).for('update')
    if (!current) throw new NotFoundError({ what: 'User' })
    const roleChanges = change.role !== undefined && change.role !== current.role
    const disabledChanges = change.disabled !== undefined && change.disabled !== current.disabled
    if (current.id === actor.id && ((roleChanges && change.role !== 'admin') || (disabledChanges && change.disabled))) {
      throw new SelfLockoutError()
    }
    if (!roleChanges && !disabledChanges) return toApiUser(current)

    const [updated] = await tx
      .update(users)
      .set({
        ...(roleChanges ? { role: change.role } : {}),
        ...(disabledChanges ? { disabled: change.disabled } : {}),
        sessionVersion: sql`${users.sessionVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId))
      .returning(userColumns)
    if (!updated) throw new NotFoundError({ what: 'User' })

    const target = { actor, targetType: 'user' as const, targetId: userId }
    if (roleChanges)
      await recordAudit(tx, {
        ...target,
        action: 'user.role_change',
        detail: { email: current.email, from: current.role, to: updated.role, ...appliedChange },
      })
    if (disabledChanges)
      await recordAudit(tx, {
        ...target,
        action: updated.disabled ? 'user.disable' : 'user.enable',
        detail: { email: current.email },
      })
    return toApiUser(updated)
  })
}
