import type postgres from 'postgres'

/** A year's volume at scale 1. */
export const HISTORY_VOLUME = {
  orders: 1_000_000,
  /** ten per order: each order's two jobs tell its story (docs/decisions/066-a-year-of-history.md) */
  jobEventsPerOrder: 10,
  auditRows: 1_000_000,
  bars: 200_000,
  /** dead letters still waiting for an admin: the failed orders of the last weeks */
  deadLetters: 500,
} as const

/** The tables the seed writes, in the order of their counts in the report. */
export const HISTORY_TABLES = [
  'mint_orders',
  'job_records',
  'job_events',
  'audit_log',
  'vault_bars',
  'mint_order_bars',
  'redemptions',
  'chain_txs',
  'signer_nonces',
  'notification_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
] as const

export const STAFF = 20
export const APPROVERS = 5
export const VAULTS = ['LDN-1', 'ZRH-1', 'NYC-1', 'SGP-1']
export const REFINERS = ['PAMP', 'VALCAMBI', 'ARGOR-HERAEUS', 'METALOR', 'RAND REFINERY']
export const RECIPIENTS = 5_000
/** the error texts the pipeline writes on a failed order */
export const FAILURES = [
  'ContractFunctionExecutionError: execution reverted: GoldMinter: rate limit exceeded',
  'ContractFunctionExecutionError: execution reverted: GoldMinter: reserves exceeded',
  'HttpRequestError: HTTP request failed. Status: 503 URL: https://rpc.example/ timed out',
  'TransactionReceiptNotFoundError: the transaction was dropped from the mempool',
  'KmsError: ThrottlingException: Rate exceeded',
]

/** What one table group's seed is given: the connection, the sizes at the run's scale, and a timed step. */
export type SeedPart = {
  /** in the replica session for the bulk tables (no trigger, no foreign-key check), else the owner's connection */
  sql: postgres.Sql | postgres.TransactionSql
  sizes: HistorySizes
  step: (what: string, run: () => Promise<unknown>) => Promise<void>
}

export type HistorySizes = {
  orders: number
  bars: number
  auditRows: number
  deadLetters: number
  /** the newest orders, still moving: awaiting approval, pending or submitted */
  liveTail: number
  /** bars redeemed by burned redemptions */
  redeemedBars: number
}

/** The rows of each kind at a scale (1 = HISTORY_VOLUME), with the floors a tiny test scale still needs. */
export function historySizes(scale: number): HistorySizes {
  const orders = Math.max(100, Math.round(HISTORY_VOLUME.orders * scale))
  const bars = Math.max(40, Math.round(HISTORY_VOLUME.bars * scale))
  return {
    orders,
    bars,
    auditRows: Math.max(100, Math.round(HISTORY_VOLUME.auditRows * scale)),
    deadLetters: Math.max(2, Math.round(HISTORY_VOLUME.deadLetters * scale)),
    // the newest orders are still moving: 0.3% of them awaiting approval, pending or submitted
    liveTail: Math.max(6, Math.round(orders * 0.003)),
    redeemedBars: Math.max(2, Math.round(bars * 0.01)),
  }
}
