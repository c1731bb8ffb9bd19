import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { signingSwitch } from '@/db/schema/signingSwitch'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { BaseError } from '@/lib/errors/BaseError'
import { type ApiSigningState, readSigningState } from '@/lib/web/signingSwitch/readSigningState'

/** The stop switch is on already: 423 signing_stopped, saying since when and why. */
export class SigningStoppedError extends BaseError {
  override name = 'SigningStoppedError'
  constructor({ state }: { state: ApiSigningState }) {
    super(
      'signing_stopped',
      `Signing is stopped already, since ${state.changedAt} by ${state.changedBy ?? 'unknown'}${state.reason ? `: ${state.reason}` : ''}.`,
    )
  }
}

export type StopSigningParameters = { actor: AdminActor; reason: string }

/**
 * The stop switch, by ONE admin, at once (docs/decisions/052-stop-switch.md): the row's UPDATE waits for the
 * workers' reserve and broadcast transactions that hold it FOR SHARE, so when this commits no worker reserves a
 * nonce or starts a broadcast until a second admin confirms the resume. Audited (`signing.stop`). Stopped
 * already: 423 signing_stopped, nothing written.
 */
export async function stopSigning(db: DbOrTx, { actor, reason }: StopSigningParameters): Promise<ApiSigningState> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(signingSwitch)
      .set({ stopped: true, reason, changedBy: actor.email, changedAt: sql`now()`, auto: false })
      .where(and(eq(signingSwitch.id, 1), eq(signingSwitch.stopped, false)))
      .returning({ id: signingSwitch.id })
    const state = await readSigningState(tx)
    if (updated.length === 0) throw new SigningStoppedError({ state })
    await recordAudit(tx, {
      actor,
      action: 'signing.stop',
      targetType: 'signing',
      targetId: 'switch',
      detail: { reason },
    })
    return state
  })
}
