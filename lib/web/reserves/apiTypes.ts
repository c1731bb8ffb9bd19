/**
 * The JSON of the public reserves routes (docs/api.md "Reserves"). Weights and supply
 * are decimal strings in fine troy ounces (1 token = 1 fine oz), never floats; times
 * are ISO 8601 strings.
 */

/** the same values as reserve_checks.status (db/schema/reserves.ts), written out: components read this file */
export type ApiReserveStatus = 'covered' | 'shortfall'

/** One reconciliation check (the worker's reserve_check task), as the admin and the public page show it. */
export type ApiReserveCheck = {
  at: string
  /** seconds since the check, when it was read */
  ageSeconds: number
  blockNumber: string
  totalSupply: string
  backingFineOz: string
  inFlightFineOz: string
  availableFineOz: string
  missingFineOz: string
  shortfallOz: string
  status: ApiReserveStatus
}

/** GET /api/reserves */
export type ApiReserves = {
  /** when the figures were read: now when read from the chain, the check's time when from the latest check */
  asOf: string
  /**
   * chain: supply read from the chain now; check: the chain
   * could not be read, the latest reconciliation check's figures
   */
  source: 'chain' | 'check'
  chainId: number | null
  tokenAddress: string | null
  /** the block whose total supply is shown */
  blockNumber: string
  /** the token's on-chain total supply, oz */
  totalSupply: string
  /** bars of confirmed orders present in the latest lists */
  backingFineOz: string
  /** bars of orders signed or submitted but not yet confirmed (their tokens may already be on chain) */
  inFlightFineOz: string
  /** listed bars held by no order */
  availableFineOz: string
  /** bars held by an order that the latest list lacks: they back nothing */
  missingFineOz: string
  /** max(0, totalSupply - backingFineOz - inFlightFineOz) */
  shortfallOz: string
  status: ApiReserveStatus
  /** the latest list of each vault */
  barLists: { vault: string; asOf: string }[]
  /** the latest reconciliation check, if any */
  lastCheck: ApiReserveCheck | null
}

/** A bar backing a mint, as the lookup lists it. */
export type ApiBackingBar = {
  serial: string
  refiner: string
  vault: string
  fineOz: string
  /** backing, or missing when the vault's latest list lacks it */
  status: string
}

/** One confirmed mint and the bars that back it. */
export type ApiBackedMint = {
  orderId: string
  to: string
  amount: string
  txHash: string
  blockNumber: string | null
  confirmedAt: string | null
  bars: ApiBackingBar[]
}

/** GET /api/reserves/lookup?address= | ?tx= */
export type ApiReserveLookup = {
  query: { address: string } | { tx: string }
  /** newest first */
  mints: ApiBackedMint[]
  /** more confirmed mints than listed (an address with many mints): the newest are shown */
  truncated: boolean
}
