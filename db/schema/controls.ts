import { sql } from 'drizzle-orm'
import { boolean, check, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

/**
 * The recipient allowlist (as a supply controller whitelists mint addresses): a mint may
 * only go to an address listed here. `address` is stored lower case, so one address is
 * one row whatever its checksum spelling; the API shows it checksummed.
 */
export const allowedRecipients = pgTable(
  'allowed_recipients',
  {
    address: text('address').notNull(),
    label: text('label').notNull(),
    addedBy: uuid('added_by').references(() => users.id),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'allowed_recipients_pkey', columns: [t.address] }),
    check(
      'allowed_recipients_address_lower',
      sql`${t.address} = lower(${t.address}) and ${t.address} ~ '^0x[0-9a-f]{40}$'`,
    ),
  ],
)

/**
 * The mint limits, one row (id is always true): the per-order maximum and the rolling
 * 24 h cap, in wei; null means unlimited (dev only: production refuses to start without
 * both). Set by admins, audited.
 */
export const mintLimits = pgTable(
  'mint_limits',
  {
    id: boolean('id').notNull().default(true),
    maxOrderWei: numeric('max_order_wei', { precision: 78, scale: 0 }),
    dailyCapWei: numeric('daily_cap_wei', { precision: 78, scale: 0 }),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'mint_limits_pkey', columns: [t.id] }),
    check('mint_limits_singleton', sql`${t.id}`),
    check(
      'mint_limits_positive',
      sql`(${t.maxOrderWei} is null or ${t.maxOrderWei} > 0) and (${t.dailyCapWei} is null or ${t.dailyCapWei} > 0)`,
    ),
  ],
)
