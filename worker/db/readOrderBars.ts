import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import type { BarStatus } from '@/db/schema/vault'

export type ReadOrderBarsParameters = { orderId: string }

/** One bar of an order as the inventory has it now, with its vault's latest list. */
export type OrderBar = {
  serial: string
  refiner: string
  vault: string
  status: BarStatus
  /** the order holding the bar now (null when free) */
  holderId: string | null
  /** fine weight in milli-oz (fine_oz has 3 decimals) */
  fineMilliOz: bigint
  /** whether the bar is one of the order's (mint_order_bars), not merely held by it */
  ofOrder: boolean
  /** the as_of of the bar's vault's latest list (null: the vault has none) */
  latestListAsOf: Date | null
}

/**
 * The order's bars (mint_order_bars) and any other bar that says it is held by the
 * order (vault_bars.order_id), re-read from the inventory for the check before signing.
 * Rows are locked (FOR SHARE) in the caller's transaction, so no intake or release
 * moves them until the signature is stored.
 */
export async function readOrderBars(tx: Tx, { orderId }: ReadOrderBarsParameters): Promise<OrderBar[]> {
  const rows = await tx.execute<{
    serial: string
    refiner: string
    vault: string
    status: BarStatus
    holder_id: string | null
    fine_milli_oz: string
    of_order: boolean
    latest_as_of: Date | string | null
  }>(sql`
    select b.serial, b.refiner, b.vault, b.status::text as status, b.order_id::text as holder_id,
      (b.fine_oz * 1000)::bigint::text as fine_milli_oz,
      exists (select 1 from mint_order_bars m where m.order_id = ${orderId}::uuid and m.bar_id = b.id) as of_order,
      (select l.as_of from bar_lists l where l.vault = b.vault order by l.as_of desc, l.imported_at desc limit 1) as latest_as_of
    from vault_bars b
    -- one id set from two index scans (an OR across the two columns scanned the whole
    -- inventory on every signature: 500k bars in the bench)
    where b.id in (
      select m.bar_id from mint_order_bars m where m.order_id = ${orderId}::uuid
      union
      select v.id from vault_bars v where v.order_id = ${orderId}::uuid
    )
    order by b.serial_key, b.refiner_key
    for share of b`)
  return rows.map((r) => ({
    serial: r.serial,
    refiner: r.refiner,
    vault: r.vault,
    status: r.status,
    holderId: r.holder_id,
    fineMilliOz: BigInt(r.fine_milli_oz),
    ofOrder: r.of_order,
    latestListAsOf: r.latest_as_of === null ? null : new Date(r.latest_as_of),
  }))
}
