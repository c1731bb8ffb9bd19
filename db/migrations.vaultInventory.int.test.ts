import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator'
import type postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigrationDatabase, type MigrationDatabase } from '@/tests/helpers/migrationDatabase'
import { migrationsFolder } from './migrate'

// Migration 0004_vault_inventory on a database that has bars from before bar lists: the
// rows typed in by the old intake must come out consistent with the inventory model.

let m: MigrationDatabase
let sql: postgres.Sql

beforeAll(async () => {
  m = await createMigrationDatabase()
  sql = m.sql
})

afterAll(async () => {
  await m?.drop()
})

describe('migration 0004_vault_inventory', () => {
  it("gives each existing bar its order's vault, a status from its order and normalized keys", async () => {
    await drizzleMigrate(drizzle(sql), { migrationsFolder: m.folderUpTo(4) })
    const [user] = await sql<
      { id: string }[]
    >`insert into users (email, name, role) values ('m@x.test', 'm', 'staff') returning id`
    const order = async (status: string, vault: string) => {
      const [row] = await sql<{ id: string }[]>`
        insert into mint_orders (to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by)
        values ('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 1, ${status}::mint_status, ${vault}, 'r', ${'0'.repeat(64)}, ${user!.id}) returning id`
      return row!.id
    }
    const bar = async (orderId: string | null, serial: string, refiner = 'Valcambi SA') => {
      const [row] = await sql<{ id: string }[]>`
        insert into vault_bars (serial, refiner, year, gross_oz, fineness, fine_oz) values (${serial}, ${refiner}, 2025, 401.125, 999.9, 401.084) returning id`
      if (orderId)
        await sql`insert into mint_order_bars (bar_id, order_id, position) values (${row!.id}, ${orderId}, 0)`
      return row!.id
    }
    const confirmed = await order('confirmed', 'LDN-1')
    const pending = await order('pending', 'LDN-1')
    const submitted = await order('submitted', 'ZRH-2')
    const failed = await order('failed', 'LDN-1')
    const cancelled = await order('cancelled', 'LDN-1')
    await bar(confirmed, 'ab-100 1', 'valcambi sa')
    await bar(pending, 'AB1002')
    await bar(submitted, 'AB1003')
    await bar(failed, 'AB1004')
    await bar(cancelled, 'AB-1002') // typed again for another order: the same physical bar as AB1002
    await bar(null, 'ORPHAN')

    await drizzleMigrate(drizzle(sql), { migrationsFolder })

    const rows = await sql<
      {
        serial: string
        vault: string
        serial_key: string
        refiner_key: string
        status: string
        order_id: string | null
        last_list_id: string | null
      }[]
    >`
      select serial, vault, serial_key, refiner_key, status::text as status, order_id::text as order_id, last_list_id::text as last_list_id
      from vault_bars order by serial`
    expect(rows).toEqual([
      {
        serial: 'AB-1002',
        vault: 'LDN-1',
        serial_key: 'AB1002-DUP-2',
        refiner_key: 'VALCAMBISA',
        status: 'withdrawn',
        order_id: null,
        last_list_id: null,
      },
      {
        serial: 'AB1002',
        vault: 'LDN-1',
        serial_key: 'AB1002',
        refiner_key: 'VALCAMBISA',
        status: 'reserved',
        order_id: pending,
        last_list_id: null,
      },
      {
        serial: 'AB1003',
        vault: 'ZRH-2',
        serial_key: 'AB1003',
        refiner_key: 'VALCAMBISA',
        status: 'reserved',
        order_id: submitted,
        last_list_id: null,
      },
      {
        serial: 'AB1004',
        vault: 'LDN-1',
        serial_key: 'AB1004',
        refiner_key: 'VALCAMBISA',
        status: 'withdrawn',
        order_id: null,
        last_list_id: null,
      },
      {
        serial: 'ORPHAN',
        vault: 'UNKNOWN',
        serial_key: 'ORPHAN',
        refiner_key: 'VALCAMBISA',
        status: 'withdrawn',
        order_id: null,
        last_list_id: null,
      },
      {
        serial: 'ab-100 1',
        vault: 'LDN-1',
        serial_key: 'AB1001',
        refiner_key: 'VALCAMBISA',
        status: 'backing',
        order_id: confirmed,
        last_list_id: null,
      },
    ])
    // the order keeps its bars; a freed bar may now be linked to a later order as well
    const [pk] = await sql<
      { def: string }[]
    >`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'mint_order_bars_pkey'`
    expect(pk?.def).toBe('PRIMARY KEY (order_id, bar_id)')
    await expect(sql`update vault_bars set status = 'reserved' where serial = 'AB1004'`).rejects.toThrow(
      /vault_bars_status_order/,
    )
  })
})
