import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { operationKind } from '@/db/schema'
import { orderConfirmJobSql } from '@/lib/jobs/orderConfirmJobSql'
import { operationColumns } from '../operations/operationColumns'

export type CountFollowedOrdersParameters = { signerAddress: string }

/**
 * How many of the signer's operations (of every kind) keep its confirmer going: submitted, and
 * not a dead letter of their own (one whose own order_confirm still runs comes back to the
 * confirmer when that job ends, so it counts).
 */
export async function countFollowedOrders(
  db: DbOrTx,
  { signerAddress }: CountFollowedOrdersParameters,
): Promise<number> {
  const counts = operationKind.enumValues.map(
    (operation) => sql`(select count(*)::int from ${sql.identifier(operationColumns[operation].table)} o
      where o.signer_address = ${signerAddress} and o.status = 'submitted'
        and not ${orderConfirmJobSql(sql`o.id`, 'dead')})`,
  )
  const [row] = await db.execute<{ n: number }>(sql`select ${sql.join(counts, sql` + `)} as n`)
  return row?.n ?? 0
}
