import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './users'
import { vaultBars } from './vault'

/**
 * A token transfer to GoldMinter's redemption address, recorded once it has the desk's confirmations
 * (worker/tasks/depositWatch.ts). A holder redeems by making one; a redemption matches it to bars and burns
 * exactly its amount, once (docs/decisions/055-redemptions.md). Whether it is unmatched, matched or redeemed is
 * read from the redemptions that reference it, never stored twice.
 */
export const deposits = pgTable(
  'deposits',
  {
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /** the holder who sent the tokens (lower-case 0x address) */
    fromAddress: text('from_address').notNull(),
    amountWei: numeric('amount_wei', { precision: 78, scale: 0 }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'deposits_pkey', columns: [t.txHash, t.logIndex] }),
    index('deposits_block_idx').on(t.blockNumber.desc(), t.logIndex.desc()),
    check('deposits_tx_hash_lower', sql`${t.txHash} ~ '^0x[0-9a-f]{64}$'`),
    check('deposits_from_lower', sql`${t.fromAddress} ~ '^0x[0-9a-f]{40}$'`),
    check('deposits_amount_positive', sql`${t.amountWei} > 0`),
  ],
)

/**
 * How far a watcher of the chain has read (one row per watcher, by name): the last block whose logs it has
 * recorded. The deposit watcher reads from the block after it.
 */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * awaiting_approval: waits for approvers' signatures of its RedemptionIntent; pending: signed
 * enough, its redemption_send job queued; submitted: its burn broadcast; burned: mined with its
 * confirmations (the supply fell, its bars are redeemed); failed: its send job dead (an admin may
 * retry); rejected: an approver said no; cancelled: an admin stopped it. Rejected and cancelled free
 * the deposit and the bars.
 */
export const redemptionStatus = pgEnum('redemption_status', [
  'awaiting_approval',
  'pending',
  'submitted',
  'burned',
  'failed',
  'rejected',
  'cancelled',
])
export type RedemptionStatus = (typeof redemptionStatus.enumValues)[number]

/**
 * One redemption: a deposit matched to whole backing bars of equal fine weight, burned by
 * GoldMinter.burn from the redemption address with approvers' signatures over its RedemptionIntent.
 * A deposit is held by at most one redemption that is not rejected or cancelled (the partial unique
 * index), so it is redeemed at most once whatever runs concurrently.
 */
export const redemptions = pgTable(
  'redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    depositTxHash: text('deposit_tx_hash').notNull(),
    depositLogIndex: integer('deposit_log_index').notNull(),
    /** the holder who made the deposit (lower-case 0x address) */
    holderAddress: text('holder_address').notNull(),
    /** the burn's amount: the deposit's amount, equal to the bars' fine weight */
    amountWei: numeric('amount_wei', { precision: 78, scale: 0 }).notNull(),
    /** the staff's reference (the custodian's release instruction, a ticket) */
    reference: text('reference').notNull(),
    status: redemptionStatus('status').notNull().default('awaiting_approval'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    /** the RedemptionIntent's deadline */
    intentDeadline: timestamp('intent_deadline', { withTimezone: true }).notNull(),
    /** the worker's signer and the nonce bound to its burn */
    signerAddress: text('signer_address'),
    nonce: bigint('nonce', { mode: 'bigint' }),
    /** the mined burn, once it has its confirmations */
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    failureReason: text('failure_reason'),
    rejectedBy: uuid('rejected_by').references(() => users.id),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    burnedAt: timestamp('burned_at', { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'redemptions_deposit_fk',
      columns: [t.depositTxHash, t.depositLogIndex],
      foreignColumns: [deposits.txHash, deposits.logIndex],
    }),
    uniqueIndex('redemptions_one_per_deposit')
      .on(t.depositTxHash, t.depositLogIndex)
      .where(sql`${t.status} not in ('rejected', 'cancelled')`),
    index('redemptions_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('redemptions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('redemptions_amount_positive', sql`${t.amountWei} > 0`),
    check('redemptions_rejected_reason', sql`(${t.status} = 'rejected') = (${t.rejectionReason} is not null)`),
  ],
)

/** The bars a redemption takes out of backing, in the order its intent hashes them. */
export const redemptionBars = pgTable(
  'redemption_bars',
  {
    redemptionId: uuid('redemption_id')
      .notNull()
      .references(() => redemptions.id),
    barId: uuid('bar_id')
      .notNull()
      .references(() => vaultBars.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.redemptionId, t.barId] }),
    unique('redemption_bars_position_key').on(t.redemptionId, t.position),
    index('redemption_bars_bar_idx').on(t.barId),
  ],
)

/** Approvers' EIP-712 signatures of a redemption's RedemptionIntent, one per user and one per key. */
export const redemptionSignatures = pgTable(
  'redemption_signatures',
  {
    redemptionId: uuid('redemption_id')
      .notNull()
      .references(() => redemptions.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** lower-case 0x address */
    signerAddress: text('signer_address').notNull(),
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.redemptionId, t.userId] }),
    unique('redemption_signatures_signer_key').on(t.redemptionId, t.signerAddress),
    check('redemption_signatures_signer_lower', sql`${t.signerAddress} ~ '^0x[0-9a-f]{40}$'`),
  ],
)
