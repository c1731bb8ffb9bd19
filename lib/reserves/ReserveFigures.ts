import type { ReserveStatus } from '@/db/schema/reserves'

/** One comparison of the on-chain supply with the inventory: exact bigints, all in wei. */
export type ReserveFigures = {
  /** the block whose total supply was read */
  blockNumber: bigint
  totalSupplyWei: bigint
  backingWei: bigint
  inFlightWei: bigint
  availableWei: bigint
  missingWei: bigint
  shortfallWei: bigint
  status: ReserveStatus
  /** the latest list of each vault */
  barLists: { vault: string; asOf: Date }[]
}
