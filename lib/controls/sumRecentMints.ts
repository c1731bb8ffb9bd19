import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type SumRecentMintsParameters = {
  /** an order left out of the sum (the one being checked) */
  excludeOrderId?: string
}

/**
 * What the rolling 24 h cap counts, in wei: the orders created in the last 24 hours that
 * are confirmed, in flight (pending, submitted) or awaiting approval; failed, cancelled
 * and rejected orders made no tokens and hold no bars.
 */
export async function sumRecentMints(db: DbOrTx, p: SumRecentMintsParameters = {}): Promise<bigint> {
  const exclude = p.excludeOrderId ?? null
  const [row] = await db.execute<{ used: string }>(sql`
    select coalesce(sum(amount_wei), 0)::text as used from mint_orders
     where created_at > now() - interval '24 hours'
       and status in ('confirmed', 'pending', 'submitted', 'awaiting_approval')
       and (${exclude}::uuid is null or id <> ${exclude}::uuid)`)
  return BigInt(row?.used ?? '0')
}
