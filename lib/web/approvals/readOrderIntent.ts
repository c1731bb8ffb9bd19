import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { BuildMintIntentParameters } from '@/lib/mint/buildMintIntent'

/** The order's MintIntent inputs as its row and its bars say (lib/mint/buildMintIntent.ts builds the intent). */
export async function readOrderIntent(
  db: DbOrTx,
  { orderId }: { orderId: string },
): Promise<BuildMintIntentParameters | undefined> {
  const [order] = await db.execute<{ to_address: string; intent_deadline: Date | string }>(sql`
    select to_address, intent_deadline from mint_orders where id = ${orderId}::uuid`)
  if (!order) return undefined
  const bars = await db.execute<{ serial: string; refiner: string; fine_milli_oz: string }>(sql`
    select b.serial, b.refiner, (b.fine_oz * 1000)::bigint::text as fine_milli_oz
    from mint_order_bars m join vault_bars b on b.id = m.bar_id where m.order_id = ${orderId}::uuid
    order by m.position`)
  return {
    orderId,
    to: order.to_address,
    bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner, fineMilliOz: BigInt(b.fine_milli_oz) })),
    deadline: new Date(order.intent_deadline),
  }
}
