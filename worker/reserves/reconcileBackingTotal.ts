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
 * Folds the running total of the backing bars (vault_backing_deltas) into ONE row holding
 * a recount of the bars, and says what the running total was: equal to the recount unless
 * a bar's status changed without its trigger (a bug, or a hand edit), and then the recount
 * is what stands from here on. The fold is public.fold_backing_deltas
 * (db/functions/fold_backing_deltas.sql): one statement under an advisory lock, run as the
 * table's owner, so the worker's role itself cannot write the running total.
 */
export async function reconcileBackingTotal(db: Db): Promise<ReconcileBackingTotalReturnType> {
  const [row] = await db.execute<{ running: string; recount: string; folded: number }>(sql`
    select running_milli_oz::text as running, recount_milli_oz::text as recount, folded from fold_backing_deltas()`)
  if (!row) throw new Error('the fold of vault_backing_deltas returned no row')
  return {
    runningWei: BigInt(row.running) * WEI_PER_MILLI_OZ,
    recountWei: BigInt(row.recount) * WEI_PER_MILLI_OZ,
    folded: Number(row.folded),
  }
}
