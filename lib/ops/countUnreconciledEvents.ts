import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

/**
 * The chain events no row of the desk accounts for that no admin has resolved (unreconciled_events, decision 063):
 * should be 0. What the alarm and the mintdesk_unreconciled_events gauge show.
 */
export async function countUnreconciledEvents(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from unreconciled_events where resolved_at is null`,
  )
  return row?.n ?? 0
}
