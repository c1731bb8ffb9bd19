import { and, eq, sql } from 'drizzle-orm'
import { signingSwitch } from '@/db/schema/signingSwitch'
import { recordAudit } from '@/lib/admin/recordAudit'
import { ConflictError } from '@/lib/web/errors/resource'
import { readSigningState } from '@/lib/web/signingSwitch/readSigningState'
import type { ControlChangeStep } from './controlChangeStep'

/**
 * `signing.resume` `{ reason }`: the stop switch off again (docs/decisions/052-stop-switch.md), a second admin's
 * to confirm: the workers reserve and broadcast again at their next batch. Signing not stopped: 409 conflict,
 * when asked and when confirmed. The audit row names both admins.
 */
export const signingResumeStep: ControlChangeStep<'signing.resume'> = {
  check: async (db) => {
    if (!(await readSigningState(db)).stopped)
      throw new ConflictError('Signing is not stopped: there is nothing to resume.')
  },
  apply: async (tx, { params, changeId, author, confirmer }) => {
    const resumed = await tx
      .update(signingSwitch)
      .set({ stopped: false, reason: params.reason, changedBy: confirmer.email, changedAt: sql`now()`, auto: false })
      .where(and(eq(signingSwitch.id, 1), eq(signingSwitch.stopped, true)))
      .returning({ id: signingSwitch.id })
    if (resumed.length === 0) throw new ConflictError('Signing is not stopped: there is nothing to resume.')
    await recordAudit(tx, {
      actor: confirmer,
      action: 'signing.resume',
      targetType: 'signing',
      targetId: 'switch',
      detail: { reason: params.reason, changeId, requestedBy: author.email },
    })
    return readSigningState(tx)
  },
}
