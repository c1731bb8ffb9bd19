import { sql } from 'drizzle-orm'
import { check, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The settings the web and the worker must share, as each process last started with them
 * (lib/config/checkSharedSettings.ts): a process writes its own value, then refuses to start
 * in production when the other process's differs. One row per process and setting; today
 * `minter_address` (MINTER_ADDRESS: the web builds the intents approvers sign for that
 * GoldMinter, the worker relays them to it, each from its own environment, which the other
 * cannot see).
 */
export const runtimeSettings = pgTable(
  'runtime_settings',
  {
    process: text('process').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'runtime_settings_pkey', columns: [t.process, t.name] }),
    check('runtime_settings_process', sql`${t.process} in ('web', 'worker')`),
  ],
)
