import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isOnChainChangeKind } from '@/lib/changes/onChainChanges'
import { isUuid } from '@/lib/mint/isUuid'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiConfirmedControlChange } from './apiTypes'
import { applyControlChange } from './applyControlChange'
import { parseControlChange } from './controlChangeParams'
import type { ControlChangeStepContext } from './controlChangeStep'
import { lockAwaitingChange } from './lockAwaitingChange'
import { signOnChainChange } from './signOnChainChange'
import { toApiControlChanges } from './toApiControlChanges'

export type ConfirmControlChangeParameters = {
  changeId: string
  /** the second admin */
  confirmer: AdminActor
  context: ControlChangeStepContext
  /**
   * a change that lives on chain: the confirmer's signature of it, GoldMinter (asked for only then: the
   * desk's own changes need no chain), the send job's attempts
   */
  onChain?: { signature: string | undefined; minter: () => MinterReader; maxAttempts: number }
}

export type ConfirmControlChangeReturnType = ApiConfirmedControlChange

/**
 * A second admin confirms a control change, and it takes effect, in ONE transaction: the
 * change locked (lockAwaitingChange: 404, 403 self_approval for its author, 409 when it is
 * not awaiting), its params parsed again, its kind's apply step (the same checks as when it
 * was asked for, against the state now: e.g. a recipient removed meanwhile is 404, and the
 * change stays awaiting), then the change marked applied with its `change.confirm` audit
 * row naming both admins. Two admins confirming at once: one applies it, the other gets 409.
 * `result` is what the kind's operation answers (the recipient, the limits, the user).
 * A change that lives on chain takes the confirmer's signature instead (signOnChainChange): at
 * GoldMinter's admin threshold it is `pending` with its control_send job, `result` null.
 */
export async function confirmControlChange(
  db: DbOrTx,
  p: ConfirmControlChangeParameters,
): Promise<ConfirmControlChangeReturnType> {
  return db.transaction(async (tx) => {
    const row = await lockAwaitingChange(tx, { changeId: p.changeId, decider: p.confirmer })
    if (isOnChainChangeKind(row.kind)) {
      if (!p.onChain) throw new Error(`${row.kind} lives on chain: confirm it with a signature and GoldMinter`)
      await signOnChainChange(tx, {
        row,
        confirmer: p.confirmer,
        signature: p.onChain.signature,
        minter: p.onChain.minter(),
        maxAttempts: p.onChain.maxAttempts,
      })
      const [now] = await tx.select().from(controlChanges).where(eq(controlChanges.id, row.id))
      if (!now) throw new Error(`control change ${row.id} vanished under its lock`)
      const [api] = await toApiControlChanges(tx, [now])
      if (!api) throw new Error(`control change ${row.id}: no answer`)
      return { ...api, result: null }
    }
    const change = parseControlChange({ kind: row.kind, params: row.params })
    const author = { id: row.authorId ?? '', email: row.authorEmail }
    const result = await applyControlChange(tx, {
      changeId: row.id,
      change,
      author,
      confirmer: p.confirmer,
      context: p.context,
    })
    const [decided] = await tx
      .update(controlChanges)
      .set({
        status: 'applied',
        decidedById: isUuid(p.confirmer.id) ? p.confirmer.id : null,
        decidedByEmail: p.confirmer.email,
        decidedAt: new Date(),
      })
      .where(eq(controlChanges.id, row.id))
      .returning()
    if (!decided) throw new Error(`control change ${row.id} vanished under its lock`)
    await recordAudit(tx, {
      actor: p.confirmer,
      action: 'change.confirm',
      targetType: 'control_change',
      targetId: row.id,
      detail: { kind: change.kind, params: change.params, requestedBy: row.authorEmail },
    })
    const [api] = await toApiControlChanges(tx, [decided])
    if (!api) throw new Error(`control change ${row.id}: no answer`)
    return { ...api, result }
  })
}
