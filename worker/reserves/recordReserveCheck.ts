import type { DbOrTx } from '@/db/client'
import { reserveChecks } from '@/db/schema/reserves'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import type { ReserveFigures } from '@/lib/reserves/ReserveFigures'

export type RecordReserveCheckReturnType = { id: bigint; at: Date }

/**
 * Writes one reconciliation check to reserve_checks (weights in milli-oz: every bar
 * weight is a whole number of them, so the division is exact).
 */
export async function recordReserveCheck(db: DbOrTx, figures: ReserveFigures): Promise<RecordReserveCheckReturnType> {
  const [row] = await db
    .insert(reserveChecks)
    .values({
      blockNumber: figures.blockNumber,
      totalSupplyWei: figures.totalSupplyWei.toString(),
      backingMilliOz: figures.backingWei / WEI_PER_MILLI_OZ,
      inFlightMilliOz: figures.inFlightWei / WEI_PER_MILLI_OZ,
      availableMilliOz: figures.availableWei / WEI_PER_MILLI_OZ,
      missingMilliOz: figures.missingWei / WEI_PER_MILLI_OZ,
      shortfallWei: figures.shortfallWei.toString(),
      status: figures.status,
    })
    .returning({ id: reserveChecks.id, at: reserveChecks.at })
  if (!row) throw new Error('reserve_checks insert returned no row')
  return row
}
