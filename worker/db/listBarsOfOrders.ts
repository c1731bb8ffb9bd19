import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import type { BarStatus } from '@/db/schema/vault'
import type { OrderBar } from './listOrderBars'

export type ListBarsOfOrdersParameters = { orderIds: readonly string[] }

/**
 * listOrderBars for every order of a send batch in ONE statement (index scans per order,
 * as listOrderBars): each order's bars (mint_order_bars) and any bar that says it is held
 * by it (vault_bars.order_id), with their vault's latest list, locked FOR SHARE in the
 * caller's transaction. By order id; an order without bars maps to [].
 */
export async function listBarsOfOrders(
  tx: Tx,
  { orderIds }: ListBarsOfOrdersParameters,
): Promise<Map<string, OrderBar[]>> {
  const byOrder = new Map<string, OrderBar[]>(orderIds.map((id) => [id, []]))
  if (orderIds.length === 0) return byOrder
  const ids = sql`${`{${orderIds.join(',')}}`}::uuid[]`
  const rows = await tx.execute<{
    order_id: string
    serial: string
    refiner: string
    vault: string
    status: BarStatus
    holder_id: string | null
    fine_milli_oz: string
    of_order: boolean
    latest_as_of: Date | string | null
  }>(sql`
    with held as (
      select m.order_id, m.bar_id, true as of_order from mint_order_bars m where m.order_id = any(${ids})
      union all
      select v.order_id, v.id as bar_id, false as of_order from vault_bars v where v.order_id = any(${ids})
    ), ids as (
      -- of_order from the index scans above: a correlated exists here became a hashed scan of all of mint_order_bars
      select order_id, bar_id, bool_or(of_order) as of_order from held group by order_id, bar_id
    )
    select ids.order_id::text as order_id, b.serial, b.refiner, b.vault, b.status::text as status, b.order_id::text as holder_id,
      (b.fine_oz * 1000)::bigint::text as fine_milli_oz,
      ids.of_order,
      (select l.as_of from bar_lists l where l.vault = b.vault order by l.as_of desc, l.imported_at desc limit 1) as latest_as_of
    from ids join vault_bars b on b.id = ids.bar_id
    order by ids.order_id, b.serial_key, b.refiner_key
    for share of b`)
  for (const r of rows) {
    byOrder.get(r.order_id)?.push({
      serial: r.serial,
      refiner: r.refiner,
      vault: r.vault,
      status: r.status,
      holderId: r.holder_id,
      fineMilliOz: BigInt(r.fine_milli_oz),
      ofOrder: r.of_order,
      latestListAsOf: r.latest_as_of === null ? null : new Date(r.latest_as_of),
    })
  }
  return byOrder
}
