import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'

export type ReadReserveTotalsParameters = {
  /** an order left out of every total (the worker's check adds this order's bars itself) */
  excludeOrderId?: string
  /**
   * false: only the held totals, what the worker's check before each signature needs, in
   * a few milliseconds however large the inventory: backing from its running total
   * (vault_backing_deltas, docs/decisions/024-backing-running-total.md), in flight from the index of reserved bars
   * and the index of the orders not confirmed (docs/decisions/072-in-flight-from-indexes.md).
   * true (the default): every total counted from the bars themselves, the free ones
   * (available, missing without a holder) included; only the reserves page and the
   * reconciliation task ask for that.
   */
  withFree?: boolean
  /**
   * with `withFree`: where the backing total comes from. `bars` (the default): counted from the bars, what the
   * reconciliation records beside its recount of the running total. `runningTotal`: the running total
   * (vault_backing_deltas, equal to the count in every snapshot, docs/decisions/024-backing-running-total.md), what
   * the reserves page reads: a few rows however many bars back confirmed orders
   * (docs/decisions/070-reserves-and-searches-at-a-years-size.md).
   */
  backingFrom?: 'bars' | 'runningTotal'
}

export type ReserveTotals = {
  /** bars 'backing' (confirmed orders, present in their vault's latest list) */
  backingWei: bigint
  /**
   * bars 'reserved' by an order signed or submitted but not confirmed: the order has a
   * stored signed transaction (chain_txs) or status 'submitted'. Its tokens may already
   * be on chain. Orders not yet signed count in neither total.
   */
  inFlightWei: bigint
  /** bars 'available' (listed, held by no order) */
  availableWei: bigint
  /** bars 'missing' (reserved or backing, absent from their vault's latest list) */
  missingWei: bigint
  /** the latest bar list of each vault, by vault name */
  barLists: { vault: string; asOf: Date }[]
}

/**
 * The reserves by bar status (docs/api.md "Reserves", docs/architecture.md invariant 4) in ONE
 * statement, so the totals are one snapshot: the reserves page, the reconciliation task
 * and the worker's check before signing (worker/mint/checkBeforeSigning.ts) read the
 * same numbers the same way.
 */
export async function readReserveTotals(db: DbOrTx, p: ReadReserveTotalsParameters = {}): Promise<ReserveTotals> {
  const exclude = p.excludeOrderId ?? null
  const withFree = p.withFree ?? true
  const countBacking = withFree && (p.backingFrom ?? 'bars') === 'bars'
  // Each total filters vault_bars directly (no shared CTE: one referenced three times is
  // materialised, a scan of the whole inventory per call). Held bars have an order_id, so
  // `order_id is not null` reads them through vault_bars_order_idx; only the free totals
  // scan, and only when asked. Without them, backing is the running total (a few rows)
  // less the excluded order's own backing bars (by its order_id). In flight reads each
  // reserved bar's order and weight from vault_bars_reserved_order_idx and its order's
  // status from mint_orders_unconfirmed_status_idx (`o.status <> 'confirmed'` is that
  // index's predicate): neither table's heap, nor a year of confirmed orders.
  const [row] = await db.execute<{
    backing: string
    in_flight: string
    available: string
    missing: string
    bar_lists: { vault: string; as_of: string }[]
  }>(sql`
    with latest as (
      select distinct on (l.vault) l.vault, l.as_of
      from bar_lists l
      order by l.vault, l.as_of desc, l.imported_at desc
    )
    select
      ((case when ${countBacking}::boolean then coalesce((
        select sum(b.fine_oz) from vault_bars b
        where b.order_id is not null and b.status = 'backing' and b.order_id is distinct from ${exclude}::uuid
      ), 0) else coalesce((select sum(d.fine_oz) from vault_backing_deltas d), 0) - coalesce((
        select sum(b.fine_oz) from vault_bars b where b.order_id = ${exclude}::uuid and b.status = 'backing'
      ), 0) end) * 1000)::bigint::text as backing,
      (coalesce((
        select sum(b.fine_oz) from vault_bars b
        join mint_orders o on o.id = b.order_id
        where b.order_id is not null and b.status = 'reserved' and b.order_id is distinct from ${exclude}::uuid
          and o.status <> 'confirmed'
          and (o.status = 'submitted' or exists (select 1 from chain_txs c where c.order_id = o.id))
      ), 0) * 1000)::bigint::text as in_flight,
      (case when ${withFree}::boolean then coalesce((
        select sum(b.fine_oz) from vault_bars b where b.status = 'available'
      ), 0) * 1000 else 0 end)::bigint::text as available,
      (case when ${withFree}::boolean then coalesce((
        select sum(b.fine_oz) from vault_bars b where b.status = 'missing' and b.order_id is distinct from ${exclude}::uuid
      ), 0) * 1000 else 0 end)::bigint::text as missing,
      coalesce((select json_agg(json_build_object('vault', vault, 'as_of', as_of) order by vault) from latest), '[]'::json) as bar_lists`)
  const weiOf = (milliOz: string | undefined) => BigInt(milliOz ?? '0') * WEI_PER_MILLI_OZ
  return {
    backingWei: weiOf(row?.backing),
    inFlightWei: weiOf(row?.in_flight),
    availableWei: weiOf(row?.available),
    missingWei: weiOf(row?.missing),
    barLists: (row?.bar_lists ?? []).map((l) => ({ vault: l.vault, asOf: new Date(l.as_of) })),
  }
}
