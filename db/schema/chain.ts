import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { complianceOperations } from './compliance'
import { controlChanges } from './controlChanges'
import { mintOrders } from './mint'
import { redemptions } from './redemptions'

/**
 * One row per signing key. next_nonce is the single source of truth for nonces
 * (docs/architecture.md invariant 3): taken under a row lock (SELECT ... FOR NO KEY
 * UPDATE, worker/db/reserveNonces.ts), never derived from eth_getTransactionCount by a
 * worker on its own.
 */
export const signers = pgTable('signers', {
  address: text('address').primaryKey(),
  kmsKeyId: text('kms_key_id').notNull().unique(),
  chainId: integer('chain_id').notNull(),
  nextNonce: bigint('next_nonce', { mode: 'bigint' }).notNull(),
  /** inactive signers take no new orders but still drain what they hold */
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The kinds of issuer operation the one send pipeline carries (docs/decisions/049-one-pipeline-for-every-operation.md):
 * one kind per table of operations, each referenced by its own column of chain_txs and signer_nonces.
 */
export const operationKind = pgEnum('operation_kind', ['mint', 'control_change', 'redemption', 'compliance'])
export type OperationKindName = (typeof operationKind.enumValues)[number]

/**
 * The operation a chain_txs or signer_nonces row carries, generated from which reference column is set
 * (order_id: a mint, control_change_id: a control change, redemption_id: a redemption, compliance_operation_id: a
 * compliance operation), so it never disagrees with the reference; null for a
 * row of no operation (a gap
 * fill of a nonce nobody held).
 */
const operationOf = sql`case when order_id is not null then 'mint'::operation_kind when control_change_id is not null then 'control_change'::operation_kind when redemption_id is not null then 'redemption'::operation_kind when compliance_operation_id is not null then 'compliance'::operation_kind end`

/**
 * what a nonce was taken for: the kind of operation it carries (operation_kind's names), or a gap fill; `resync`:
 * used on chain while the database did not know it (a restore rolled the database back, or the key was used
 * outside mintdesk), taken over by the nonce resync (docs/decisions/063-nonce-resync-after-restore.md)
 */
export const nonceUse = pgEnum('nonce_use', [
  'mint',
  'gap_fill',
  'control_change',
  'redemption',
  'compliance',
  'resync',
])
export const nonceState = pgEnum('nonce_state', ['reserved', 'signed', 'mined', 'released'])

/** Every nonce ever handed out, so a gap is visible as a row, not a guess. */
export const signerNonces = pgTable(
  'signer_nonces',
  {
    signerAddress: text('signer_address')
      .notNull()
      .references(() => signers.address),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    use: nonceUse('use').notNull(),
    orderId: uuid('order_id').references(() => mintOrders.id),
    controlChangeId: uuid('control_change_id').references(() => controlChanges.id),
    redemptionId: uuid('redemption_id').references(() => redemptions.id),
    complianceOperationId: uuid('compliance_operation_id').references(() => complianceOperations.id),
    operation: operationKind('operation').generatedAlwaysAs(operationOf),
    state: nonceState('state').notNull().default('reserved'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'signer_nonces_pkey', columns: [t.signerAddress, t.nonce] }),
    index('signer_nonces_order_idx').on(t.orderId),
    index('signer_nonces_control_change_idx').on(t.controlChangeId),
    index('signer_nonces_redemption_idx').on(t.redemptionId),
    index('signer_nonces_compliance_idx').on(t.complianceOperationId),
    check(
      'signer_nonces_one_operation',
      sql`num_nonnulls(${t.orderId}, ${t.controlChangeId}, ${t.redemptionId}, ${t.complianceOperationId}) <= 1`,
    ),
  ],
)

/** a transaction's first signing for an operation (its kind's name), a replacement at its nonce, or a gap fill */
export const txKind = pgEnum('tx_kind', [
  'mint',
  'replacement',
  'gap_fill',
  'control_change',
  'redemption',
  'compliance',
])

/**
 * Every signed transaction, stored BEFORE it is broadcast (invariant 2): a retry
 * re-sends these exact bytes. A replacement shares the nonce and gets its own row.
 */
export const chainTxs = pgTable(
  'chain_txs',
  {
    hash: text('hash').primaryKey(),
    signerAddress: text('signer_address')
      .notNull()
      .references(() => signers.address),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    orderId: uuid('order_id').references(() => mintOrders.id),
    controlChangeId: uuid('control_change_id').references(() => controlChanges.id),
    redemptionId: uuid('redemption_id').references(() => redemptions.id),
    complianceOperationId: uuid('compliance_operation_id').references(() => complianceOperations.id),
    operation: operationKind('operation').generatedAlwaysAs(operationOf),
    kind: txKind('kind').notNull(),
    rawTx: text('raw_tx').notNull(),
    maxFeePerGas: numeric('max_fee_per_gas', { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric('max_priority_fee_per_gas', { precision: 78, scale: 0 }).notNull(),
    gasLimit: numeric('gas_limit', { precision: 78, scale: 0 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    minedBlock: bigint('mined_block', { mode: 'bigint' }),
  },
  (t) => [
    index('chain_txs_signer_nonce_idx').on(t.signerAddress, t.nonce),
    index('chain_txs_order_idx').on(t.orderId),
    index('chain_txs_control_change_idx').on(t.controlChangeId),
    index('chain_txs_redemption_idx').on(t.redemptionId),
    index('chain_txs_compliance_idx').on(t.complianceOperationId),
    check(
      'chain_txs_one_operation',
      sql`num_nonnulls(${t.orderId}, ${t.controlChangeId}, ${t.redemptionId}, ${t.complianceOperationId}) <= 1`,
    ),
  ],
)
