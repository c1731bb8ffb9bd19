import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { latestFeeEventSql } from '@/lib/jobs/latestFeeEventSql'

/**
 * Open orders (pending or submitted) that the fee ceiling holds back now: the chain asks
 * for more than MAX_FEE_PER_GAS / MAX_PRIORITY_FEE, so the worker waits instead of paying.
 * Above 0 for long, the ceiling is below the market: raise it or wait for the fees to fall.
 * Feeds the admin system status, `mintdesk_fee_capped_orders` and the CloudWatch alarm.
 */
export async function countFeeCappedOrders(db: DbOrTx): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from mint_orders o
    where o.status in ('pending', 'submitted') and ${latestFeeEventSql(sql`o.id`)} = 'fee_capped'`)
  return rows[0]?.n ?? 0
}
