import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { DbOrTx } from '@/db/client'
import { signingSwitch } from '@/db/schema/signingSwitch'
import type { signingStateSchema } from './responseSchemas'

/** The stop switch as the admin pages and the API show it. */
export type ApiSigningState = z.infer<typeof signingStateSchema>

/** The stop switch's row (docs/decisions/052-stop-switch.md), read for the pages, the API and the gauge. */
export async function readSigningState(db: DbOrTx): Promise<ApiSigningState> {
  const [row] = await db.select().from(signingSwitch).where(eq(signingSwitch.id, 1))
  if (!row) return { stopped: false, reason: null, changedBy: null, changedAt: new Date(0).toISOString(), auto: false }
  return {
    stopped: row.stopped,
    reason: row.reason,
    changedBy: row.changedBy,
    changedAt: row.changedAt.toISOString(),
    auto: row.auto,
  }
}
