import { createHash } from 'node:crypto'
import type postgres from 'postgres'
import { mintSendJobKey, TASK } from '../../lib/jobs/jobKeys'
import { ozToWei } from '../../lib/money/ozToWei'
import type { MintRequestInput } from '../../lib/mint/mintRequestSchema'
import { normalizeBarKey } from '../../lib/vault/normalizeBarKey'

export type InsertOrderRawParameters = {
  request: MintRequestInput
  user: { id: string; email: string }
  /** named prepared statements (postgres.js's default) or unnamed ones, as Drizzle sends them */
  prepare: boolean
}

/**
 * The intake's order-plus-job transaction (lib/mint/createMintOrder.ts without an
 * Idempotency-Key) as plain SQL: the very statements Drizzle generates for it, in the
 * same order, with the same values, and graphile_worker.add_job as lib/jobs/addJob.ts
 * calls it. Run inside the caller's transaction. No validation, no zod, no ORM: what
 * is left is the database's own cost of one accepted order.
 */
export async function insertOrderRaw(tx: postgres.TransactionSql, { request, user, prepare }: InsertOrderRawParameters): Promise<void> {
  const q = <T extends object[]>(text: string, params: unknown[]) =>
    tx.unsafe<T>(text, params as postgres.ParameterOrJSON<never>[], { prepare })
  const proof = request.vaultProof
  const [order] = await q<{ id: string }[]>(
    'insert into "mint_orders" ("id", "to_address", "amount_wei", "status", "vault", "receipt_ref", "document_sha256", "requested_by", "idempotency_key", "request_hash", "accepted_response", "job_id", "signer_address", "nonce", "tx_hash", "block_number", "failure_reason", "created_at", "updated_at", "submitted_at", "confirmed_at") values (default, $1, $2, $3, $4, $5, $6, $7, $8, $9, default, default, default, default, default, default, default, default, default, default, default) returning "id"',
    [request.to, ozToWei(request.amount).toString(), 'pending', proof.vault, proof.receiptRef, proof.documentSha256, user.id, null, requestHash(request)],
  )
  if (!order) throw new Error('insert into mint_orders returned no row')
  // reserveBars (lib/vault/reserveBars.ts): the vault's lock shared, the bars looked up
  // by key on the latest list, locked in id order, reserved where still available
  await q('select pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [`vault_bars:${proof.vault}`])
  const keys = proof.bars.map((b) => ({ sk: keyOf(b.serial), rk: keyOf(b.refiner) }))
  const found = await q<{ id: string; serial_key: string; refiner_key: string; on_latest: boolean; fine_oz: string }[]>(
    'with latest as (select id from bar_lists where vault = $1 order by as_of desc, imported_at desc limit 1) select b.id::text as id, b.serial_key, b.refiner_key, b.vault, b.year, b.gross_oz::text as gross_oz, b.fineness::text as fineness, b.fine_oz::text as fine_oz, b.status::text as status, (b.last_list_id is not null and b.last_list_id = (select id from latest)) as on_latest from vault_bars b join json_to_recordset($2::text::json) as k(sk text, rk text) on b.serial_key = k.sk and b.refiner_key = k.rk',
    [proof.vault, JSON.stringify(keys)],
  )
  const idOf = new Map(found.filter((r) => r.on_latest).map((r) => [`${r.serial_key}\u0000${r.refiner_key}`, r.id]))
  const ids = keys.map((k) => idOf.get(`${k.sk}\u0000${k.rk}`))
  if (ids.some((id) => id === undefined)) throw new Error('a bar is not on the bar list')
  const idArray = `{${ids.join(',')}}`
  await q('select id::text as id, status::text as status from vault_bars where id = any($1::uuid[]) order by id for update', [idArray])
  const reserved = await q<{ id: string }[]>(
    "update vault_bars set status = 'reserved', order_id = $1::uuid, updated_at = now() where id = any($2::uuid[]) and status = 'available' returning id::text as id",
    [order.id, idArray],
  )
  if (reserved.length !== ids.length) throw new Error('a bar was already used')
  await q(
    `insert into "mint_order_bars" ("order_id", "bar_id", "position") values ${proof.bars.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ')}`,
    ids.flatMap((id, position) => [order.id, id, position]),
  )
  const payload = JSON.stringify({ orderId: order.id })
  const [job] = await q<{ id: string }[]>(
    'select id::text as id from graphile_worker.add_job($1, $2::json, job_key => $3::text, max_attempts => $4::int, run_at => $5::timestamptz)',
    [TASK.mintSend, payload, mintSendJobKey(order.id), 5, null],
  )
  if (!job) throw new Error('add_job returned no row')
  await q(
    'insert into "job_records" ("job_id", "task", "order_id", "state", "attempts", "max_attempts", "last_error", "payload", "created_at", "updated_at", "finished_at") values ($1, $2, $3, $4, $5, $6, default, $7, default, default, default) on conflict ("job_id") do update set "state" = $8, "payload" = $9, "updated_at" = $10, "finished_at" = $11',
    [job.id, TASK.mintSend, order.id, 'queued', 0, 5, payload, 'queued', payload, new Date().toISOString(), null],
  )
  await q(
    'insert into "job_events" ("id", "order_id", "job_id", "task", "event", "attempt", "detail", "error", "actor", "duration_ms", "data", "at") values (default, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, default)',
    [order.id, job.id, TASK.mintSend, 'enqueued', null, `mint ${request.amount} oz to ${request.to}`, null, user.email, null, null],
  )
  const accepted = JSON.stringify({ orderId: order.id, jobId: job.id, status: 'pending', statusUrl: `/api/gold/mint/${order.id}` })
  await q('update "mint_orders" set "accepted_response" = $1, "job_id" = $2 where "mint_orders"."id" = $3', [accepted, job.id, order.id])
}

function requestHash(request: MintRequestInput): string {
  // the intake hashes the canonical request; any 64-hex digest costs the database the same
  return createHash('sha256').update(JSON.stringify(request)).digest('hex')
}

function keyOf(text: string): string {
  const key = normalizeBarKey(text)
  if (!key.ok) throw new Error(key.message)
  return key.key
}
