import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { BarStatus } from '@/db/schema'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'

export type ListRedemptionBarsParameters = { ids: readonly string[] }

/** One bar of a redemption as the inventory has it now. */
export type RedemptionBar = {
  barId: string
  serial: string
  refiner: string
  vault: string
  status: BarStatus
  /** fine weight in milli-oz (fine_oz has 3 decimals) */
  fineMilliOz: bigint
  /** the mint order the bar backs (or backed) */
  orderId: string | null
  /** the redemption holding the bar now (vault_bars.redemption_id): this one, another, or none */
  holderId: string | null
}

/** The bars of each redemption (redemption_bars), in their positions, by redemption id (none: []). */
export async function listRedemptionBars(
  db: DbOrTx,
  { ids }: ListRedemptionBarsParameters,
): Promise<Map<string, RedemptionBar[]>> {
  const byRedemption = new Map<string, RedemptionBar[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byRedemption
  const rows = await db.execute<{
    redemption_id: string
    bar_id: string
    serial: string
    refiner: string
    vault: string
    status: BarStatus
    fine_milli_oz: string
    order_id: string | null
    holder_id: string | null
  }>(sql`
    select rb.redemption_id::text as redemption_id, b.id::text as bar_id, b.serial, b.refiner, b.vault, b.status,
      (b.fine_oz * 1000)::bigint::text as fine_milli_oz, b.order_id::text as order_id,
      b.redemption_id::text as holder_id
    from redemption_bars rb join vault_bars b on b.id = rb.bar_id
    where rb.redemption_id = any(${uuidArraySql(ids)})
    order by rb.redemption_id, rb.position`)
  for (const r of rows)
    byRedemption.get(r.redemption_id)?.push({
      barId: r.bar_id,
      serial: r.serial,
      refiner: r.refiner,
      vault: r.vault,
      status: r.status,
      fineMilliOz: BigInt(r.fine_milli_oz),
      orderId: r.order_id,
      holderId: r.holder_id,
    })
  return byRedemption
}
