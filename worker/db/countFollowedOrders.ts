import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { orderConfirmJobSql } from '@/lib/jobs/orderConfirmJobSql'

export type CountFollowedOrdersParameters = { signerAddress: string }

/**
 * How many of the signer's orders keep its confirmer going: submitted, and not a dead
 * letter of their own (an order whose own order_confirm still runs comes back to the
 * confirmer when that job ends, so it counts).
 */
export async function countFollowedOrders(
  db: DbOrTx,
  { signerAddress }: CountFollowedOrdersParameters,
): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from mint_orders o
    where o.signer_address = ${signerAddress} and o.status = 'submitted'
      and not ${orderConfirmJobSql(sql`o.id`, 'dead')}`)
  return row?.n ?? 0
}
