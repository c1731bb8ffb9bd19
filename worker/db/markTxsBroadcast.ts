import { inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema'

export type MarkTxsBroadcastParameters = { hashes: readonly string[] }

/** markTxBroadcast for a batch: the node accepted (or already had) these transactions; the first time wins. */
export async function markTxsBroadcast(db: DbOrTx, { hashes }: MarkTxsBroadcastParameters): Promise<void> {
  if (hashes.length === 0) return
  await db
    .update(chainTxs)
    .set({ broadcastAt: sql`coalesce(${chainTxs.broadcastAt}, now())` })
    .where(inArray(chainTxs.hash, [...hashes]))
}
