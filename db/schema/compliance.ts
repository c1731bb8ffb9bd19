import { sql } from 'drizzle-orm'
import { bigint, check, index, pgEnum, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

/** What a compliance operation does to the token: GoldMinter.setFrozen (freeze, unfreeze) or setPaused. */
export const complianceAction = pgEnum('compliance_action', ['freeze', 'unfreeze', 'pause', 'unpause'])
export type ComplianceAction = (typeof complianceAction.enumValues)[number]

/**
 * awaiting_approval: waits for approvers' signatures of its FreezeIntent or PauseIntent; pending:
 * signed enough, its compliance_send job queued; submitted: broadcast; applied: mined with its
 * confirmations; failed: its send job dead (an admin may retry); rejected: an approver said no;
 * cancelled: an admin stopped it.
 */
export const complianceStatus = pgEnum('compliance_status', [
  'awaiting_approval',
  'pending',
  'submitted',
  'applied',
  'failed',
  'rejected',
  'cancelled',
])
export type ComplianceStatus = (typeof complianceStatus.enumValues)[number]

/**
 * One compliance operation of the token (docs/decisions/056-compliance-operations.md): an admin asks, with a
 * reason; approvers sign its intent (GoldMinter's complianceApprovals of them); the worker relays it through the
 * one send pipeline. A batch of freezes is one row per address, sharing a batch_id.
 */
export const complianceOperations = pgTable(
  'compliance_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: complianceAction('action').notNull(),
    /** the frozen or unfrozen account (lower-case 0x address); null for pause and unpause */
    account: text('account'),
    reason: text('reason').notNull(),
    /** the operations asked for together (a batch of freezes) */
    batchId: uuid('batch_id'),
    status: complianceStatus('status').notNull().default('awaiting_approval'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    /** the intent's deadline */
    intentDeadline: timestamp('intent_deadline', { withTimezone: true }).notNull(),
    signerAddress: text('signer_address'),
    nonce: bigint('nonce', { mode: 'bigint' }),
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    failureReason: text('failure_reason'),
    rejectedBy: uuid('rejected_by').references(() => users.id),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    index('compliance_operations_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('compliance_operations_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('compliance_operations_account_idx').on(t.account),
    check('compliance_operations_account', sql`(${t.action} in ('freeze', 'unfreeze')) = (${t.account} is not null)`),
    check('compliance_operations_account_lower', sql`${t.account} is null or ${t.account} ~ '^0x[0-9a-f]{40}$'`),
    check('compliance_operations_reason', sql`length(${t.reason}) between 1 and 500`),
    check(
      'compliance_operations_rejected_reason',
      sql`(${t.status} = 'rejected') = (${t.rejectionReason} is not null)`,
    ),
  ],
)

/** Approvers' EIP-712 signatures of a compliance operation's intent, one per user and one per key. */
export const complianceSignatures = pgTable(
  'compliance_signatures',
  {
    operationId: uuid('operation_id')
      .notNull()
      .references(() => complianceOperations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** lower-case 0x address */
    signerAddress: text('signer_address').notNull(),
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.operationId, t.userId] }),
    unique('compliance_signatures_signer_key').on(t.operationId, t.signerAddress),
    check('compliance_signatures_signer_lower', sql`${t.signerAddress} ~ '^0x[0-9a-f]{40}$'`),
  ],
)
