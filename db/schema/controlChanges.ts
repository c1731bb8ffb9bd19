import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

/** A control change waits for a second admin, then is applied or rejected, once. */
export const controlChangeStatus = pgEnum('control_change_status', ['awaiting_second_admin', 'applied', 'rejected'])
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
