import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type DeleteJobRowParameters = { jobId: bigint }

/**
 * A running job that ends for good deletes its own queue row in the caller's
 * transaction (graphile-worker's completion then deletes nothing): from the commit on,
 * whoever looks for a job under its key finds none and adds a new one, instead of
 * trusting a job that is about to finish (the confirmer's hand-over).
 */
export async function deleteJobRow(tx: Tx, { jobId }: DeleteJobRowParameters): Promise<void> {
  await tx.execute(sql`delete from graphile_worker._private_jobs where id = ${jobId}::bigint`)
}
