import type { DbOrTx } from '@/db/client'
import { computeReserves } from './computeReserves'
import type { ReserveFigures } from './ReserveFigures'
import { type ReadReserveTotalsParameters, readReserveTotals } from './readReserveTotals'
import type { ReadTotalSupplyReturnType } from './readTotalSupply'

export type ReadReserveFiguresParameters = {
  /** the supply read from the chain just before (readTotalSupply): the chain first, then the inventory */
  supply: ReadTotalSupplyReturnType
  /** where the backing total comes from (readReserveTotals): counted from the bars by default */
  backingFrom?: ReadReserveTotalsParameters['backingFrom']
}

/**
 * The inventory's totals (readReserveTotals) beside an on-chain supply, and the
 * shortfall between them: what GET /api/reserves answers and what the worker's
 * reserve_check records.
 */
export async function readReserveFigures(
  db: DbOrTx,
  { supply, backingFrom }: ReadReserveFiguresParameters,
): Promise<ReserveFigures> {
  const totals = await readReserveTotals(db, { backingFrom })
  const { shortfallWei, status } = computeReserves({ totalSupplyWei: supply.totalSupplyWei, totals })
  return {
    blockNumber: supply.blockNumber,
    totalSupplyWei: supply.totalSupplyWei,
    backingWei: totals.backingWei,
    inFlightWei: totals.inFlightWei,
    availableWei: totals.availableWei,
    missingWei: totals.missingWei,
    shortfallWei,
    status,
    barLists: totals.barLists,
  }
}
