import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import type { AdminActor } from '@/lib/admin/recordAudit'
import { isUuid } from '@/lib/mint/isUuid'
import { ChangeNotAwaitingError, SelfConfirmError } from '@/lib/web/errors/changes'
import { NotFoundError } from '@/lib/web/errors/resource'

export type LockAwaitingChangeParameters = {
  changeId: string
  /** the admin about to confirm or reject it */
  decider: AdminActor
}

/**
 * A control change locked FOR UPDATE for its decision, so of two admins deciding at once
 * one decides and the other then finds it decided. Unknown id: 404; its author (same user
 * id or email): 403 self_approval; already applied or rejected: 409
 * not_awaiting_second_admin.
 */
export async function lockAwaitingChange(tx: Tx, { changeId, decider }: LockAwaitingChangeParameters) {
  if (!isUuid(changeId)) throw new NotFoundError({ what: 'Change' })
  const [row] = await tx.select().from(controlChanges).where(eq(controlChanges.id, changeId)).for('update')
  if (!row) throw new NotFoundError({ what: 'Change' })
  const sameUser = row.authorId !== null && row.authorId === decider.id
  if (sameUser || row.authorEmail.toLowerCase() === decider.email.toLowerCase()) throw new SelfConfirmError()
  if (row.status !== 'awaiting_second_admin') throw new ChangeNotAwaitingError({ status: row.status })
  return row
}
