import { sql } from 'drizzle-orm'
import { bigint, bigserial, check, index, numeric, pgEnum, pgTable, timestamp } from 'drizzle-orm/pg-core'

export const reserveStatus = pgEnum('reserve_status', ['covered', 'shortfall'])
export type ReserveStatus = (typeof reserveStatus.enumValues)[number]

/**
 * One row per reconciliation check (the worker's reserve_check task, every
 * RESERVE_CHECK_MS): the token's on-chain total supply at a block beside the fine weight
 * of the listed bars backing it (docs/architecture.md invariant 4). Weights in milli-ounces,
 * supply and shortfall in token base units (wei), all exact. A row is never updated: the
 * history is the proof that supply stayed within the reserves, check after check.
 */
export const reserveChecks = pgTable(
  'reserve_checks',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** the block whose total supply was read */
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    totalSupplyWei: numeric('total_supply_wei', { precision: 78, scale: 0 }).notNull(),
    /** bars of confirmed orders present in the latest lists (status backing) */
    backingMilliOz: bigint('backing_milli_oz', { mode: 'bigint' }).notNull(),
    /** bars of orders signed or submitted, not yet confirmed */
    inFlightMilliOz: bigint('in_flight_milli_oz', { mode: 'bigint' }).notNull(),
    /** free bars of the latest lists */
    availableMilliOz: bigint('available_milli_oz', { mode: 'bigint' }).notNull(),
    /** bars held by an order that the latest list lacks */
    missingMilliOz: bigint('missing_milli_oz', { mode: 'bigint' }).notNull(),
    /** max(0, total supply - backing - in flight), in wei */
    shortfallWei: numeric('shortfall_wei', { precision: 78, scale: 0 }).notNull(),
    status: reserveStatus('status').notNull(),
  },
  (t) => [
    index('reserve_checks_at_idx').on(t.at.desc(), t.id.desc()),
    check('reserve_checks_shortfall_status', sql`(${t.status} = 'shortfall') = (${t.shortfallWei} > 0)`),
    check(
      'reserve_checks_non_negative',
      sql`${t.totalSupplyWei} >= 0 and ${t.shortfallWei} >= 0 and ${t.backingMilliOz} >= 0 and ${t.inFlightMilliOz} >= 0 and ${t.availableMilliOz} >= 0 and ${t.missingMilliOz} >= 0`,
    ),
  ],
)

/**
 * The running total of the bars backing confirmed orders (status backing), as signed
 * changes: every statement that moves fine weight into or out of 'backing' appends one
 * row (the statement-level triggers on vault_bars, db/functions/vault_bars_backing_delta.sql), so the worker's check
 * before each signature sums a few rows instead of every backing bar (docs/decisions/024-backing-running-total.md). The
 * reserve_check task folds the rows into one and compares the sum with a recount of the
 * bars. Troy ounces with three decimals, as the bars' fine weights: exact.
 */
export const vaultBackingDeltas = pgTable('vault_backing_deltas', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  fineOz: numeric('fine_oz', { precision: 20, scale: 3 }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
})
