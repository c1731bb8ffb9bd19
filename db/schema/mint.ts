import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './users'
import { vaultBars } from './vault'

/**
 * awaiting_approval: at or above the approval threshold, waits for a second person (no job
 * yet); rejected: an approver said no (its bars are free again).
 */
export const mintStatus = pgEnum('mint_status', [
  'pending',
  'submitted',
  'confirmed',
  'failed',
  'cancelled',
  'awaiting_approval',
  'rejected',
])
export type MintStatus = (typeof mintStatus.enumValues)[number]

export const mintOrders = pgTable(
  'mint_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    /** token base units (18 decimals); 1 token = 1 fine troy ounce */
    amountWei: numeric('amount_wei', { precision: 78, scale: 0 }).notNull(),
    status: mintStatus('status').notNull().default('pending'),
    vault: text('vault').notNull(),
    receiptRef: text('receipt_ref').notNull(),
    documentSha256: text('document_sha256').notNull(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    idempotencyKey: text('idempotency_key'),
    /** sha256 of the canonical request body, to tell a replay from a conflict */
    requestHash: text('request_hash'),
    /** the first 202 answer, returned again on a replay */
    acceptedResponse: jsonb('accepted_response'),
    /** graphile-worker id of the mint_send job added with the order */
    jobId: bigint('job_id', { mode: 'bigint' }),
    /** the signer and nonce bound to this order (set once, by mint_send) */
    signerAddress: text('signer_address'),
    nonce: bigint('nonce', { mode: 'bigint' }),
    /** the transaction that was mined (one of the hashes in chain_txs) */
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    failureReason: text('failure_reason'),
    /** the second person who approved the order (four eyes; never its requester) */
    approvedBy: uuid('approved_by').references(() => users.id),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** the approver who rejected it, and why */
    rejectedBy: uuid('rejected_by').references(() => users.id),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    /**
     * the deadline of the order's MintIntent (whole seconds), fixed at intake: the approvers
     * sign it and GoldMinter refuses the mint after it
     */
    intentDeadline: timestamp('intent_deadline', { withTimezone: true })
      .notNull()
      .default(sql`date_trunc('second', now()) + interval '7 days'`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    unique('mint_orders_idempotency_key').on(t.requestedBy, t.idempotencyKey),
    unique('mint_orders_signer_nonce_key').on(t.signerAddress, t.nonce),
    index('mint_orders_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('mint_orders_requested_by_created_idx').on(t.requestedBy, t.createdAt.desc(), t.id.desc()),
    index('mint_orders_status_idx').on(t.status, t.createdAt.desc()),
    // the rolling 24 h cap counts a confirmed order from when it was mined (public.recent_mints_wei)
    index('mint_orders_confirmed_at_idx').on(t.confirmedAt),
    // the in-flight total (lib/reserves/readReserveTotals.ts) looks up each reserved bar's order among the orders not
    // confirmed, from the index alone: a few thousand entries, not a year of confirmed orders
    index('mint_orders_unconfirmed_status_idx').on(t.id, t.status).where(sql`${t.status} <> 'confirmed'`),
    // the admin's job search by recipient compares lower(to_address)
    index('mint_orders_to_address_lower_idx').on(sql`lower(${t.toAddress})`),
    check('mint_orders_amount_positive', sql`${t.amountWei} > 0`),
    check('mint_orders_not_self_approved', sql`${t.approvedBy} is null or ${t.approvedBy} <> ${t.requestedBy}`),
    check('mint_orders_not_self_rejected', sql`${t.rejectedBy} is null or ${t.rejectedBy} <> ${t.requestedBy}`),
  ],
)

/**
 * The bars of each order, in request order: the order's history, kept after the order
 * frees them (failed, cancelled). A freed bar may back a later order, so the key is
 * (order_id, bar_id); "at most one open or confirmed order per bar" is vault_bars.order_id.
 */
export const mintOrderBars = pgTable(
  'mint_order_bars',
  {
    barId: uuid('bar_id')
      .notNull()
      .references(() => vaultBars.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => mintOrders.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mint_order_bars_pkey', columns: [t.orderId, t.barId] }),
    index('mint_order_bars_bar_idx').on(t.barId),
  ],
)

/**
 * The signing keys people hold, bound to their users (POST /api/me/signing-key, with the
 * key's personal_sign of the binding text). A key is bound to one user; a user may hold
 * several. The worker counts an approval only from a key bound to a user other than the
 * order's requester that is also an approver on chain.
 */
export const userSigningKeys = pgTable(
  'user_signing_keys',
  {
    /** lower-case 0x address */
    address: text('address').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** the key's personal_sign of the binding text (lib/web/approvals/signingKeyText.ts) */
    bindingSignature: text('binding_signature').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_signing_keys_user_idx').on(t.userId),
    check('user_signing_keys_address_lower', sql`${t.address} ~ '^0x[0-9a-f]{40}$'`),
  ],
)

/**
 * Approvers' EIP-712 signatures of an order's MintIntent, one per user and one per signer.
 * The web verifies each before it writes it; the worker verifies every one again before it
 * relays them, and GoldMinter a third time.
 */
export const mintOrderSignatures = pgTable(
  'mint_order_signatures',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => mintOrders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** lower-case 0x address */
    signerAddress: text('signer_address').notNull(),
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.userId] }),
    unique('mint_order_signatures_signer_key').on(t.orderId, t.signerAddress),
  ],
)
