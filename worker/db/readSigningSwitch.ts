import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { signingSwitch } from '@/db/schema'

export type SigningSwitchState = { stopped: boolean; reason: string | null }

/**
 * The stop switch as the database has it now. `share`: FOR SHARE in the caller's transaction, so an admin's
 * stop (an UPDATE of the row) waits until that transaction ends: once the stop commits, no transaction that
 * read "not stopped" is still reserving or broadcasting.
 */
export async function readSigningSwitch(db: DbOrTx, p: { share: boolean }): Promise<SigningSwitchState> {
  const q = db
    .select({ stopped: signingSwitch.stopped, reason: signingSwitch.reason })
    .from(signingSwitch)
    .where(eq(signingSwitch.id, 1))
  const [row] = p.share ? await q.for('share') : await q
  return row ?? { stopped: false, reason: null }
}
