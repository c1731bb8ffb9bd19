import { createHash, randomUUID } from 'node:crypto'
import type postgres from 'postgres'
import type { MintRequest, MintRequestInput } from '../../lib/mint/mintRequestSchema'
import { ozToWei } from '../../lib/money/ozToWei'
import type { SessionToCheck } from '../../lib/web/auth/ClaimedSessionUser'
import { createMintOrderArguments } from '../../lib/web/mint/createMintOrderArguments'
import { createMintOrderCall } from '../../lib/web/mint/createMintOrderCall'

export type InsertOrderRawParameters = {
  request: MintRequestInput
  /** who orders, checked against the users table by the function first, as the intake's own call is */
  user: SessionToCheck
  /** a named prepared statement (as the intake sends it) or an unnamed one (parse + describe on every call) */
  prepare: boolean
}

/**
 * The intake's transaction (lib/web/mint/createMintOrder.ts without an Idempotency-Key: the order
 * awaits approvers' signatures, no job yet) as plain SQL: the very statement the intake sends, the SQL
 * function create_mint_order with the same arguments (lib/web/mint/createMintOrderArguments),
 * in autocommit as the intake runs it, the session's check against the user's row included
 * (its first step, not a round trip of its own). No validation, no zod, no ORM, no HTTP:
 * what is left is the database's own cost of one accepted order. Throws the function's refusal
 * (e.g. 'bar_already_used') as postgres.js gives it.
 */
export async function insertOrderRaw(
  sql: postgres.Sql | postgres.TransactionSql,
  { request, user, prepare }: InsertOrderRawParameters,
): Promise<void> {
  // the bench's bodies are valid requests (createMintBodies); the intake would have parsed them
  const valid = request as MintRequest
  const call = createMintOrderCall(
    createMintOrderArguments({
      orderId: randomUUID(),
      session: user,
      request: valid,
      requestHash: requestHash(request),
      amountWei: ozToWei(valid.amount),
      needsApproval: true,
      idempotencyKey: null,
      maxAttempts: 5,
      transport: 'postgres',
    }),
  )
  const [row] = await sql.unsafe<{ r_outcome: string }[]>(call.text, call.values, { prepare })
  if (row?.r_outcome !== 'created') throw new Error(`create_mint_order answered ${row?.r_outcome ?? 'nothing'}`)
}

function requestHash(request: MintRequestInput): string {
  // the intake hashes the canonical request; any 64-hex digest costs the database the same
  return createHash('sha256').update(JSON.stringify(request)).digest('hex')
}
