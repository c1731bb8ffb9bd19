import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'

export type ReadOrderBarsWeiParameters = { orderId: string }

/** The fine weight of the order's bars (mint_order_bars), in wei: the amount a mint of the order must carry. */
export async function readOrderBarsWei(db: DbOrTx, { orderId }: ReadOrderBarsWeiParameters): Promise<bigint> {
  const [row] = await db.execute<{ milli: string }>(sql`
    select coalesce(sum(b.fine_oz * 1000), 0)::bigint::text as milli
      from mint_order_bars m join vault_bars b on b.id = m.bar_id
     where m.order_id = ${orderId}::uuid`)
  return BigInt(row?.milli ?? '0') * WEI_PER_MILLI_OZ
}
