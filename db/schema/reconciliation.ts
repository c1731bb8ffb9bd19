import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core'

/**
 * The token's and GoldMinter's events the worker's nonce_resync read back from the chain and could not match to a
 * row of the desk (docs/decisions/063-nonce-resync-after-restore.md): a Minted with no order (a mint by a holder of
 * the minter role outside mintdesk), or with an order whose recipient or amount differ; a Burned with no redemption;
 * a compliance event with no operation; a ControlChanged with no control change. One row per log, written once by
 * the worker; an admin marks it resolved with a note (the web, audited), and nothing else changes it.
 */
export const unreconciledEvents = pgTable(
  'unreconciled_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** the contract that emitted it */
    contractAddress: text('contract_address').notNull(),
    /** Minted, Burned, Frozen, Unfrozen, Paused, Unpaused, ControlChanged */
    event: text('event').notNull(),
    /** the event's id argument (orderId, redemptionId, operationId, changeId) as the chain holds it: bytes32 hex */
    subjectId: text('subject_id'),
    /** the desk's id it decodes to (a uuid), when it decodes to one */
    orderId: text('order_id'),
    /** the amount in token base units (wei), for Minted and Burned */
    amountWei: numeric('amount_wei', { precision: 78, scale: 0 }),
    /** why it did not match, in words */
    reason: text('reason').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    unique('unreconciled_events_log_unique').on(t.txHash, t.logIndex),
    index('unreconciled_events_open_idx').on(t.blockNumber, t.logIndex).where(sql`${t.resolvedAt} is null`),
    check(
      'unreconciled_events_resolution_whole',
      sql`(${t.resolvedAt} is null) = (${t.resolvedBy} is null) and (${t.resolvedAt} is null) = (${t.resolutionNote} is null)`,
    ),
  ],
)
