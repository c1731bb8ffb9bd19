import type { ReserveStatus } from '@/db/schema/reserves'
import type { ReserveTotals } from './readReserveTotals'

export type ComputeReservesParameters = {
  /** the token's on-chain total supply, wei */
  totalSupplyWei: bigint
  totals: Pick<ReserveTotals, 'backingWei' | 'inFlightWei'>
}

export type ComputeReservesReturnType = {
  /** max(0, supply - backing - in flight), wei */
  shortfallWei: bigint
  status: ReserveStatus
}

/**
 * Invariant 4 as arithmetic: the supply must not exceed the fine weight of the listed
 * bars backing confirmed or in-flight orders. In-flight bars count because their tokens
 * may already be on chain before the order is confirmed (docs/api.md "Reserves").
 */
export function computeReserves({ totalSupplyWei, totals }: ComputeReservesParameters): ComputeReservesReturnType {
  const covered = totals.backingWei + totals.inFlightWei
  const shortfallWei = totalSupplyWei > covered ? totalSupplyWei - covered : 0n
  return { shortfallWei, status: shortfallWei > 0n ? 'shortfall' : 'covered' }
}
