import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './users'

/**
 * A control change waits for a second admin, then is applied or rejected, once. A change that
 * lives on chain is, once confirmed, `pending` (its applyControlChange call queued), `submitted`
 * (broadcast), `applied` when mined with its confirmations, or `failed` (its send job dead).
 */
export const controlChangeStatus = pgEnum('control_change_status', [
  'awaiting_second_admin',
  'applied',
  'rejected',
  'pending',
  'submitted',
  'failed',
])
export type ControlChangeStatus = (typeof controlChangeStatus.enumValues)[number]

/**
 * Changes to the desk's controls that take effect only when a second admin confirms them
 * (docs/api.md "Control changes need a second admin"; lib/web/changes/). `kind` is a text
 * (`recipient.add`, `recipient.remove`, `limits.set`, `user.role`; on-chain kinds join it),
 * `params` its JSON as lib/web/changes/controlChangeParams.ts parses it. The author is kept
 * by email (and id when it is a user of this desk); so is whoever decided it. A change is
 * decided once: applied or rejected, with who and when, and a rejection with its reason.
 */
export const controlChanges = pgTable(
  'control_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    params: jsonb('params').notNull(),
    status: controlChangeStatus('status').notNull().default('awaiting_second_admin'),
    authorId: uuid('author_id').references(() => users.id),
    authorEmail: text('author_email').notNull(),
    /** the second admin who confirmed (status applied) or rejected it */
    decidedById: uuid('decided_by_id').references(() => users.id),
    decidedByEmail: text('decided_by_email'),
    /** why it was rejected */
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    // a change that lives on chain (lib/changes/onChainChanges.ts): its ControlChange's deadline,
    // and its pipeline state as the worker's send path keeps it (docs/decisions/049)
    /** the signed ControlChange's deadline; null for a change of the desk's own rows */
    deadline: timestamp('deadline', { withTimezone: true }),
    /** the worker's signer and the nonce bound to the change's applyControlChange call */
    signerAddress: text('signer_address'),
    nonce: bigint('nonce', { mode: 'bigint' }),
    /** the mined transaction, once it has its confirmations */
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    /** why its send failed (status failed) */
    failureReason: text('failure_reason'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('control_changes_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('control_changes_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('control_changes_kind_format', sql`${t.kind} ~ '^[a-z]+(\\.[a-z_]+)+$'`),
    check(
      'control_changes_decided',
      sql`(${t.status} = 'awaiting_second_admin') = (${t.decidedByEmail} is null and ${t.decidedAt} is null)`,
    ),
    check(
      'control_changes_not_self_decided',
      sql`${t.decidedByEmail} is null or ${t.decidedByEmail} <> ${t.authorEmail}`,
    ),
    check('control_changes_rejected_reason', sql`(${t.status} = 'rejected') = (${t.reason} is not null)`),
  ],
)

/**
 * The admins' EIP-712 signatures of a change that lives on chain (its ControlChange,
 * lib/changes/controlChangeIntent.ts): the author's, given with the proposal, and each
 * confirming admin's. GoldMinter counts them against its admin set and threshold; the worker
 * verifies them again before it relays them. One per admin and one per key.
 */
export const controlChangeSignatures = pgTable(
  'control_change_signatures',
  {
    changeId: uuid('change_id')
      .notNull()
      .references(() => controlChanges.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** lower-case 0x address */
    signerAddress: text('signer_address').notNull(),
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.changeId, t.userId] }),
    unique('control_change_signatures_signer_key').on(t.changeId, t.signerAddress),
    check('control_change_signatures_signer_lower', sql`${t.signerAddress} ~ '^0x[0-9a-f]{40}$'`),
  ],
)
