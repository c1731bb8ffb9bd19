import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema'

export type MarkTxBroadcastParameters = { hash: string }

/** Records that the node accepted (or already had) the transaction; the first time wins. */
export async function markTxBroadcast(db: DbOrTx, { hash }: MarkTxBroadcastParameters): Promise<void> {
  await db
    .update(chainTxs)
    .set({ broadcastAt: sql`coalesce(${chainTxs.broadcastAt}, now())` })
    .where(eq(chainTxs.hash, hash))
}
