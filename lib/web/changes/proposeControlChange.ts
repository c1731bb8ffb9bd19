import type { DbOrTx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isUuid } from '@/lib/mint/isUuid'
import type { ApiControlChangeAccepted } from './apiTypes'
import { checkControlChange } from './checkControlChange'
import { parseControlChange } from './controlChangeParams'
import type { ControlChangeStepContext } from './controlChangeStep'

export type ProposeControlChangeParameters = {
  kind: string
  /** the kind's params (the route's validated body); parsed again by the kind's schema */
  params: unknown
  author: AdminActor
  context: ControlChangeStepContext
}

export type ProposeControlChangeReturnType = ApiControlChangeAccepted

/**
 * An admin asks for a control change (docs/api.md "Control changes need a second admin"):
 * its params parsed by its kind's schema and checked against the state now (the kind's
 * `check`: the errors the direct change would give, 404, 409, 422, and nothing written),
 * then the change stored as awaiting a second admin with its `change.propose` audit row,
 * in one transaction. Nothing changes until another admin confirms it
 * (confirmControlChange).
 */
export async function proposeControlChange(
  db: DbOrTx,
  p: ProposeControlChangeParameters,
): Promise<ProposeControlChangeReturnType> {
  const change = parseControlChange({ kind: p.kind, params: p.params })
  await checkControlChange(db, { change, author: p.author, context: p.context })
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(controlChanges)
      .values({
        kind: change.kind,
        params: change.params,
        authorId: isUuid(p.author.id) ? p.author.id : null,
        authorEmail: p.author.email,
      })
      .returning({ id: controlChanges.id })
    if (!row) throw new Error('control_changes: no row returned')
    await recordAudit(tx, {
      actor: p.author,
      action: 'change.propose',
      targetType: 'control_change',
      targetId: row.id,
      detail: { kind: change.kind, params: change.params },
    })
    return { changeId: row.id, status: 'awaiting_second_admin' as const }
  })
}
