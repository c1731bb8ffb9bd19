import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'
import { formatDecimal } from '@/lib/money/formatDecimal'
import type { ApiMintLimits } from './apiTypes'
import { readMintLimits } from './readMintLimits'
import { sumRecentMints } from './sumRecentMints'

/** The mint limits as the API shows them (fine oz; null unlimited), with what the cap counts now. */
export async function readApiMintLimits(db: DbOrTx): Promise<ApiMintLimits> {
  const limits = await readMintLimits(db)
  const used = await sumRecentMints(db)
  let updatedBy: string | null = null
  if (limits.updatedBy !== null) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, limits.updatedBy))
    updatedBy = user?.email ?? null
  }
  return {
    maxOrderOz: limits.maxOrderWei === null ? null : oz(limits.maxOrderWei),
    dailyCapOz: limits.dailyCapWei === null ? null : oz(limits.dailyCapWei),
    last24hOz: oz(used),
    updatedBy,
    updatedAt: limits.updatedAt?.toISOString() ?? null,
  }
}

/** wei as fine ounces, at least 3 decimals, exact. */
function oz(wei: bigint): string {
  return formatDecimal(wei, { decimals: 18, minFraction: 3 })
}
