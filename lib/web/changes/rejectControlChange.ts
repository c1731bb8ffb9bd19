import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isUuid } from '@/lib/mint/isUuid'
import type { ApiControlChange } from './apiTypes'
import { lockAwaitingChange } from './lockAwaitingChange'
import { toApiControlChanges } from './toApiControlChanges'

export type RejectControlChangeParameters = {
  changeId: string
  /** the second admin */
  rejecter: AdminActor
  reason: string
}

/**
 * A second admin rejects a control change: nothing of it ever applies. The change locked
 * (lockAwaitingChange: 404, 403 self_approval for its author, 409 when it is not awaiting),
 * marked rejected with who, when and why, and its `change.reject` audit row naming both
 * admins, in one transaction.
 */
export async function rejectControlChange(db: DbOrTx, p: RejectControlChangeParameters): Promise<ApiControlChange> {
  return db.transaction(async (tx) => {
    const row = await lockAwaitingChange(tx, { changeId: p.changeId, decider: p.rejecter })
    const [decided] = await tx
      .update(controlChanges)
      .set({
        status: 'rejected',
        decidedById: isUuid(p.rejecter.id) ? p.rejecter.id : null,
        decidedByEmail: p.rejecter.email,
        decidedAt: new Date(),
        reason: p.reason,
      })
      .where(eq(controlChanges.id, row.id))
      .returning()
    if (!decided) throw new Error(`control change ${row.id} vanished under its lock`)
    await recordAudit(tx, {
      actor: p.rejecter,
      action: 'change.reject',
      targetType: 'control_change',
      targetId: row.id,
      detail: { kind: row.kind, params: row.params, requestedBy: row.authorEmail, reason: p.reason },
    })
    const [api] = await toApiControlChanges(tx, [decided])
    if (!api) throw new Error(`control change ${row.id}: no answer`)
    return api
  })
}
