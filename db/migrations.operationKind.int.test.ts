import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator'
import type postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigrationDatabase, type MigrationDatabase } from '@/tests/helpers/migrationDatabase'
import { migrationsFolder } from './migrate'

// Migration 0028_one_pipeline_operation on a database holding a mint's nonce and transaction
// and a gap fill of a nonce nobody held: each row names the operation it carries, generated from
// its reference column, and keeps doing so for the rows written after it.

let m: MigrationDatabase
let sql: postgres.Sql

beforeAll(async () => {
  m = await createMigrationDatabase()
  sql = m.sql
})

afterAll(async () => {
  await m?.drop()
})

const SIGNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('migration 0028_one_pipeline_operation', () => {
  it('names the operation of every nonce and transaction from its reference column, before and after it', async () => {
    await drizzleMigrate(drizzle(sql), { migrationsFolder: m.folderUpTo(28) })
    const [user] = await sql<{ id: string }[]>`
      insert into users (email, name, role) values ('m@x.test', 'm', 'staff') returning id`
    const order = async () => {
      const [row] = await sql<{ id: string }[]>`
        insert into mint_orders (to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by)
        values (${SIGNER}, 1, 'submitted', 'LDN-1', 'r', ${'0'.repeat(64)}, ${user!.id}) returning id`
      return row!.id
    }
    const tx = (hash: string, nonce: number, orderId: string | null, kind: string) => sql`
      insert into chain_txs (hash, signer_address, nonce, order_id, kind, raw_tx, max_fee_per_gas,
        max_priority_fee_per_gas, gas_limit)
      values (${hash}, ${SIGNER}, ${nonce}, ${orderId}, ${kind}::tx_kind, '0x02', 1, 1, 21000)`
    await sql`insert into signers (address, kms_key_id, chain_id, next_nonce) values (${SIGNER}, 'k', 31337, 4)`
    const before = await order()
    await sql`insert into signer_nonces (signer_address, nonce, use, order_id, state) values
      (${SIGNER}, 0, 'mint', ${before}, 'signed'), (${SIGNER}, 1, 'gap_fill', null, 'released')`
    await tx('0xa0', 0, before, 'mint')
    await tx('0xa1', 1, null, 'gap_fill')

    await drizzleMigrate(drizzle(sql), { migrationsFolder })

    const after = await order()
    await sql`insert into signer_nonces (signer_address, nonce, use, order_id, state) values
      (${SIGNER}, 2, 'mint', ${after}, 'reserved'), (${SIGNER}, 3, 'gap_fill', null, 'released')`
    await tx('0xb0', 2, after, 'mint')
    const nonces = await sql<{ nonce: string; operation: string | null }[]>`
      select nonce::text, operation::text from signer_nonces order by nonce`
    expect(nonces).toEqual([
      { nonce: '0', operation: 'mint' },
      { nonce: '1', operation: null },
      { nonce: '2', operation: 'mint' },
      { nonce: '3', operation: null },
    ])
    const txs = await sql<{ hash: string; operation: string | null }[]>`
      select hash, operation::text from chain_txs order by hash`
    expect(txs).toEqual([
      { hash: '0xa0', operation: 'mint' },
      { hash: '0xa1', operation: null },
      { hash: '0xb0', operation: 'mint' },
    ])
    // the kind follows the reference: a gap fill that takes an order's nonce over carries that order's operation
    await sql`update signer_nonces set order_id = ${after} where nonce = 3`
    const [taken] = await sql<{ operation: string | null }[]>`select operation::text from signer_nonces where nonce = 3`
    expect(taken?.operation).toBe('mint')
    // and nobody writes it apart from its reference
    await expect(sql`update chain_txs set operation = null where hash = '0xb0'`).rejects.toThrow(
      /can only be updated to DEFAULT/,
    )
  })
})
