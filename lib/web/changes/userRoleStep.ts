import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type UserRole, users } from '@/db/schema/users'
import type { AdminActor } from '@/lib/admin/recordAudit'
import { ValidationError } from '@/lib/web/errors/request'
import { NotFoundError } from '@/lib/web/errors/resource'
import { SelfLockoutError } from '@/lib/web/errors/users'
import { updateUser } from '@/lib/web/users/updateUser'
import type { ControlChangeStep } from './controlChangeStep'

/**
 * `user.role` `{ userId, role }`: gives a user another role; their sessions stop at their
 * next request (lib/web/users/updateUser). Refused: an unknown user (404), the role they
 * already have (422 on `role`), and taking the admin role away from either admin of the
 * change (409 self_lockout: a third admin must).
 */
export const userRoleStep: ControlChangeStep<'user.role'> = {
  check: async (db, { params, author }) => {
    await refuseUnlessChangeable(db, { ...params, admins: [author] })
  },
  apply: async (tx, { params, changeId, author, confirmer }) => {
    await refuseUnlessChangeable(tx, { ...params, admins: [author, confirmer] })
    return updateUser(tx, {
      userId: params.userId,
      change: { role: params.role },
      actor: confirmer,
      appliedChange: { changeId, requestedBy: author.email },
    })
  },
}

async function refuseUnlessChangeable(
  db: DbOrTx,
  p: { userId: string; role: UserRole; admins: readonly AdminActor[] },
): Promise<void> {
  const [user] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, p.userId))
  if (!user) throw new NotFoundError({ what: 'User' })
  if (user.role === p.role) throw new ValidationError([{ path: 'role', message: `the user is ${p.role} already` }])
  if (p.role !== 'admin' && p.admins.some((a) => a.id === user.id)) throw new SelfLockoutError()
}
