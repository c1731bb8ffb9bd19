import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { signingSwitch } from '@/db/schema'

/**
 * The reserve check turns the stop switch on (STOP_ON_SHORTFALL): `auto`, with its reason and the worker as who.
 * Returns whether it changed (false: stopped already). A second admin resumes it, as after every stop.
 */
export async function tripSigningSwitch(db: DbOrTx, p: { reason: string; by: string }): Promise<boolean> {
  const rows = await db
    .update(signingSwitch)
    .set({ stopped: true, reason: p.reason, changedBy: p.by, changedAt: sql`now()`, auto: true })
    .where(and(eq(signingSwitch.id, 1), eq(signingSwitch.stopped, false)))
    .returning({ id: signingSwitch.id })
  return rows.length > 0
}
