import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type SumRecentMintsParameters = {
  /** an order left out of the sum (the one being checked) */
  excludeOrderId?: string
}

/**
 * What the rolling 24 h cap counts, in wei, as the controls count it: a call of the SQL
 * function public.recent_mints_wei, the rule's one home (every order in flight, those mined
 * in the last 24 hours and the requests of the last 24 hours awaiting approval;
 * public.check_mint_controls sums the same). For the limits' page (readApiMintLimits).
 */
export async function sumRecentMints(db: DbOrTx, p: SumRecentMintsParameters = {}): Promise<bigint> {
  const exclude = p.excludeOrderId ?? null
  const [row] = await db.execute<{ used: string }>(
    sql`select public.recent_mints_wei(p_exclude_order_id => ${exclude}::uuid)::text as used`,
  )
  return BigInt(row?.used ?? '0')
}
