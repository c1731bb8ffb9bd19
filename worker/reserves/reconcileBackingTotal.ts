import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'

export type ReconcileBackingTotalReturnType = {
  /** the running total before the fold (the sum of vault_backing_deltas), in wei */
  runningWei: bigint
  /** the recount of the bars with status backing, in wei: what the running total now is */
  recountWei: bigint
  /** the rows folded into one */
  folded: number
}

/**
 * Folds the running total of the backing bars (vault_backing_deltas) into
 * ONE row holding a recount of the bars, and says what the running total was: equal to
 * the recount unless a bar's status changed without its trigger (a bug, or a hand edit),
 * and then the recount is what stands from here on. One statement, so the rows deleted
 * and the bars counted are one snapshot: a change committed meanwhile is in neither, and
 * its own row stays. Serialised by a transaction-scoped advisory lock: two folds at once
 * would each write their recount.
 */
export async function reconcileBackingTotal(db: Db): Promise<ReconcileBackingTotalReturnType> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vault_backing_deltas'))`)
    const [row] = await tx.execute<{ running: string; recount: string; folded: number }>(sql`
      with folded as (
        delete from vault_backing_deltas returning fine_oz
      ), recount as (
        select coalesce(sum(b.fine_oz), 0) as fine_oz from vault_bars b where b.status = 'backing'
      ), kept as (
        insert into vault_backing_deltas (fine_oz) select r.fine_oz from recount r where r.fine_oz <> 0
      )
      select
        ((select coalesce(sum(f.fine_oz), 0) from folded f) * 1000)::bigint::text as running,
        ((select r.fine_oz from recount r) * 1000)::bigint::text as recount,
        (select count(*) from folded)::int as folded`)
    if (!row) throw new Error('the fold of vault_backing_deltas returned no row')
    return {
      runningWei: BigInt(row.running) * WEI_PER_MILLI_OZ,
      recountWei: BigInt(row.recount) * WEI_PER_MILLI_OZ,
      folded: Number(row.folded),
    }
  })
}
