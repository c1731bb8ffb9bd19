import { createHash } from 'node:crypto'
import type postgres from 'postgres'
import { mintSendJobKey, TASK } from '../../lib/jobs/jobKeys'
import { ozToWei } from '../../lib/money/ozToWei'
import type { MintRequestInput } from '../../lib/mint/mintRequestSchema'

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
  const bars = [...proof.bars].sort((a, b) => (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0))
  const values = bars.map((_, i) => `(default, $${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6}, default)`)
  const inserted = await q<{ id: string; serial: string }[]>(
    `insert into "vault_bars" ("id", "serial", "refiner", "year", "gross_oz", "fineness", "fine_oz", "created_at") values ${values.join(', ')} on conflict do nothing returning "id", "serial", "refiner"`,
    bars.flatMap((b) => [b.serial, b.refiner, b.year, b.grossOz, b.fineness, b.fineOz]),
  )
  if (inserted.length !== bars.length) throw new Error('a bar was already used')
  const idOf = new Map(inserted.map((r) => [r.serial, r.id]))
  await q(
    `insert into "mint_order_bars" ("bar_id", "order_id", "position") values ${proof.bars.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ')}`,
    proof.bars.flatMap((b, position) => [idOf.get(b.serial), order.id, position]),
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
