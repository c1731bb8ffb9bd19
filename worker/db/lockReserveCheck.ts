import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

/**
 * Serialises everything that adds the singleton reserve_check job (the check handing
 * over to its follow-up, and every worker making sure one exists) for the rest of the
 * caller's transaction.
 */
export async function lockReserveCheck(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mintdesk:reserve_check'))`)
}
