import { NotReadyError } from '@/lib/web/errors/ops'
import type { ReservesReader } from './createReservesReader'

/**
 * GoldMinter's redemption address as the reserves read it (the same per-process cache as GET /api/reserves), or
 * null while neither the chain nor a recorded check can give it: the pages that show it say so then.
 */
export async function readRedemptionAddress(reader: ReservesReader): Promise<string | null> {
  try {
    return (await reader.reserves()).redemptionAddress
  } catch (error) {
    if (error instanceof NotReadyError) return null
    throw error
  }
}
