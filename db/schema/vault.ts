import { sql } from 'drizzle-orm'
import { check, integer, numeric, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

/**
 * A physical Good Delivery bar. Serial + refiner identify it. Weights are exact
 * numerics (troy oz, 3 decimals); fineness in parts per thousand with up to 2 decimals.
 */
export const vaultBars = pgTable(
  'vault_bars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serial: text('serial').notNull(),
    refiner: text('refiner').notNull(),
    year: integer('year').notNull(),
    grossOz: numeric('gross_oz', { precision: 12, scale: 3 }).notNull(),
    fineness: numeric('fineness', { precision: 5, scale: 2 }).notNull(),
    fineOz: numeric('fine_oz', { precision: 12, scale: 3 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('vault_bars_serial_refiner_key').on(t.serial, t.refiner),
    // the same physical bar typed in another letter case ('ab123' / 'VALCAMBI SA') is
    // still the same bar: it must not back a second order (docs/architecture.md invariant 4)
    uniqueIndex('vault_bars_serial_refiner_ci_key').on(sql`lower(${t.serial})`, sql`lower(${t.refiner})`),
    check('vault_bars_fineness_range', sql`${t.fineness} >= 900 and ${t.fineness} <= 999.99`),
    check('vault_bars_fine_le_gross', sql`${t.fineOz} > 0 and ${t.fineOz} <= ${t.grossOz}`),
  ],
)
