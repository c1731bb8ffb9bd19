import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
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
import { mintOrders } from './mint'
import { redemptions } from './redemptions'
import { users } from './users'

/**
 * One custodian bar list as imported: a snapshot of one vault at `as_of`
 * (docs/architecture.md invariant 4: bars come from these lists, never from what a user
 * types). The counts are what the import did; importing the same list again (same
 * vault, as_of and content hash) answers them again and changes nothing.
 */
export const barLists = pgTable(
  'bar_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vault: text('vault').notNull(),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
    /**
     * sha256 (hex) of the list's canonical content: the same bars give the same hash, whatever their order or format
     */
    contentSha256: text('content_sha256').notNull(),
    /** the admin who imported it; null for a list imported by a script (the local stack's dev seed) */
    importedBy: uuid('imported_by').references(() => users.id),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    barCount: integer('bar_count').notNull(),
    added: integer('added').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    withdrawn: integer('withdrawn').notNull().default(0),
    /** the bars reserved or backing that the list lacks: [{ serial, refiner, orderId }] */
    missing: jsonb('missing').notNull().default(sql`'[]'::jsonb`),
    /** bars whose attributes differ from the inventory (not applied): [{ serial, refiner, field, inventory, list }] */
    conflicts: jsonb('conflicts').notNull().default(sql`'[]'::jsonb`),
    /** the StandardMerkleTree root of the list's bars (lib/chain/bars.ts); null: a list from before signatures */
    barsRoot: text('bars_root'),
    /** the sum of the bars' fine weights in wei, as the custodian signed it */
    totalFineWei: numeric('total_fine_wei', { precision: 78, scale: 0 }),
    /** the custodian key that signed the list (lower-case 0x address) */
    custodianAddress: text('custodian_address'),
    /** the custodian's EIP-712 signature of the BarList; a list without one backs no new mint */
    custodianSignature: text('custodian_signature'),
    /** free-form labels of the list (the dev seed marks itself as dev data here) */
    metadata: jsonb('metadata'),
  },
  (t) => [
    unique('bar_lists_vault_as_of_content_key').on(t.vault, t.asOf, t.contentSha256),
    index('bar_lists_vault_as_of_idx').on(t.vault, t.asOf.desc(), t.importedAt.desc()),
    index('bar_lists_imported_at_idx').on(t.importedAt.desc(), t.id.desc()),
    // a signed list carries all four; a list from before signatures has none (and backs no new mint)
    check(
      'bar_lists_signed_whole',
      sql`num_nonnulls(${t.barsRoot}, ${t.totalFineWei}, ${t.custodianAddress}, ${t.custodianSignature}) in (0, 4)`,
    ),
  ],
)

export const barStatus = pgEnum('bar_status', ['available', 'reserved', 'backing', 'missing', 'withdrawn', 'redeemed'])
export type BarStatus = (typeof barStatus.enumValues)[number]

/**
 * The inventory: one row per physical Good Delivery bar, created by a bar-list import.
 * Serial + refiner identify a bar, compared through their keys (upper case, no spaces or
 * dashes: lib/vault/normalizeBarKey.ts). Weights are exact numerics (troy oz, 3
 * decimals); fineness in parts per thousand with up to 2 decimals. A bar's attributes
 * never change after its import (a later list that differs is a conflict).
 *
 * `status` and `order_id` (the open or confirmed order holding the bar) move together:
 * available/withdrawn hold no order, reserved/backing hold one, missing (absent from the
 * latest list while reserved or backing) may. order_id is what makes "a bar is reserved
 * by or backs at most one open or confirmed order" true (invariant 4).
 */
export const vaultBars = pgTable(
  'vault_bars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vault: text('vault').notNull(),
    serial: text('serial').notNull(),
    refiner: text('refiner').notNull(),
    serialKey: text('serial_key').notNull(),
    refinerKey: text('refiner_key').notNull(),
    year: integer('year').notNull(),
    grossOz: numeric('gross_oz', { precision: 12, scale: 3 }).notNull(),
    fineness: numeric('fineness', { precision: 5, scale: 2 }).notNull(),
    fineOz: numeric('fine_oz', { precision: 12, scale: 3 }).notNull(),
    status: barStatus('status').notNull().default('available'),
    orderId: uuid('order_id').references(() => mintOrders.id),
    /**
     * the redemption that takes the bar out of backing: an open one while the bar is still backing, the burned
     * one once it is redeemed (and after, should a later list lack it: withdrawn)
     */
    redemptionId: uuid('redemption_id').references((): AnyPgColumn => redemptions.id),
    /**
     * the latest list that contained the bar (a bar_lists id); null for bars registered
     * before bar lists existed. No foreign key: every import rewrites this column on up to
     * 100,000 rows, and a key check per row doubled an import's time (lists are never deleted).
     */
    lastListId: uuid('last_list_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('vault_bars_key').on(t.serialKey, t.refinerKey),
    index('vault_bars_vault_status_keys_idx').on(t.vault, t.status, t.serialKey, t.refinerKey),
    index('vault_bars_vault_keys_idx').on(t.vault, t.serialKey, t.refinerKey),
    index('vault_bars_order_idx').on(t.orderId),
    // the in-flight total (lib/reserves/readReserveTotals.ts) reads only the reserved bars, their orders and weights
    // from the index alone, however many bars back confirmed orders
    index('vault_bars_reserved_order_idx').on(t.orderId, t.fineOz).where(sql`${t.status} = 'reserved'`),
    // the reserves page's free totals (available, missing) summed from the index alone
    index('vault_bars_status_fine_oz_idx').on(t.status, t.fineOz),
    check('vault_bars_fineness_range', sql`${t.fineness} >= 900 and ${t.fineness} <= 999.99`),
    check('vault_bars_fine_le_gross', sql`${t.fineOz} > 0 and ${t.fineOz} <= ${t.grossOz}`),
    check(
      'vault_bars_status_order',
      sql`(${t.status} in ('available', 'withdrawn') and ${t.orderId} is null)
        or (${t.status} in ('reserved', 'backing') and ${t.orderId} is not null)
        or ${t.status} = 'missing'
        or (${t.status}::text = 'redeemed' and ${t.orderId} is not null and ${t.redemptionId} is not null)`,
    ),
    index('vault_bars_redemption_idx').on(t.redemptionId),
  ],
)

/**
 * The members of each bar list: every listed bar (its inventory row, found by serial and refiner key, whichever
 * vault holds it), written by the list's import in the same transaction (lib/web/vault/importBarList.ts). So what a
 * past list held stays known after later lists rewrite vault_bars.last_list_id: the attestation of a past block
 * (lib/web/reserves/readAttestationPack.ts) counts a bar only when its vault's list in force then has it
 * (docs/decisions/061-attestation-pack.md). No foreign keys, as vault_bars.last_list_id: an import writes up to
 * 100,000 rows here, lists and bars are never deleted. Lists imported before this table have only the members that
 * their bars' last_list_id still named (migration 0036).
 */
export const barListMembers = pgTable(
  'bar_list_members',
  {
    listId: uuid('list_id').notNull(),
    barId: uuid('bar_id').notNull(),
  },
  (t) => [primaryKey({ name: 'bar_list_members_pkey', columns: [t.listId, t.barId] })],
)
