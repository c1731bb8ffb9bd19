import { sql } from 'drizzle-orm'
import { boolean, check, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The stop switch (docs/decisions/052-stop-switch.md): ONE row. While `stopped`, no worker reserves a nonce,
 * broadcasts a new transaction, replaces one or fills a gap; queued work waits and confirmations go on. One
 * admin stops at once (or the reserve check, when STOP_ON_SHORTFALL is set: `auto`); resuming is a control
 * change a second admin confirms. Who and why of the last change; the audit log keeps every one.
 */
export const signingSwitch = pgTable(
  'signing_switch',
  {
    id: smallint('id').primaryKey().default(1),
    stopped: boolean('stopped').notNull().default(false),
    /** why it was stopped (or resumed) */
    reason: text('reason'),
    /** who changed it last: an admin's email, or the worker's id when the reserve check tripped it */
    changedBy: text('changed_by'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** the reserve check stopped it (a shortfall), not an admin */
    auto: boolean('auto').notNull().default(false),
  },
  (t) => [check('signing_switch_one_row', sql`${t.id} = 1`)],
)
