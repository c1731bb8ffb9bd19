import { inFlightStatuses, type MintStatus } from '@/lib/web/mint/apiTypes'

/** Polling interval while an order shown is still moving (pending or submitted). */
export const LIVE_POLL_MS = 2_000

export function isInFlight(status: MintStatus): boolean {
  return inFlightStatuses.includes(status)
}

/** True when any of the orders is still in flight; the pages poll only then. */
export function hasInFlight(orders: readonly { status: MintStatus }[]): boolean {
  return orders.some((o) => isInFlight(o.status))
}
