import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintLimits } from '@/db/schema/controls'

export type ReadMintLimitsReturnType = {
  /** the per-order maximum in wei; null: unlimited */
  maxOrderWei: bigint | null
  /** the rolling 24 h cap in wei; null: unlimited */
  dailyCapWei: bigint | null
  updatedBy: string | null
  updatedAt: Date | null
}

/** The mint limits (the singleton mint_limits row); no row yet reads as both unlimited. */
export async function readMintLimits(db: DbOrTx): Promise<ReadMintLimitsReturnType> {
  const [row] = await db.select().from(mintLimits).where(eq(mintLimits.id, true)).limit(1)
  if (!row) return { maxOrderWei: null, dailyCapWei: null, updatedBy: null, updatedAt: null }
  return {
    maxOrderWei: row.maxOrderWei === null ? null : BigInt(row.maxOrderWei),
    dailyCapWei: row.dailyCapWei === null ? null : BigInt(row.dailyCapWei),
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt,
  }
}
