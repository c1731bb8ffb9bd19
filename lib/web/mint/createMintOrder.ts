import { randomUUID } from 'node:crypto'
import type { Db } from '@/db/client'
import type { QueueTransport } from '@/lib/jobs/addJob'
import { ozToWei } from '@/lib/money/ozToWei'
import type { SessionToCheck } from '@/lib/web/auth/ClaimedSessionUser'
import { checkSessionRow } from '@/lib/web/auth/checkSessionRow'
import { IdempotencyConflictError, UnauthenticatedError, ValidationError } from '@/lib/web/errors'
import { isUuid } from '../../mint/isUuid'
import type { MintRequestInput } from '../../mint/mintRequestSchema'
import type { ApiMintAccepted } from './apiTypes'
import { createMintOrderArguments } from './createMintOrderArguments'
import { createMintOrderCall } from './createMintOrderCall'
import { hashMintRequest } from './hashMintRequest'
import { intakeRefusal } from './intakeRefusal'
import { parseMintRequest } from './parseMintRequest'

export type CreateMintOrderParameters = {
  /**
   * Who asks, checked against the user's row by the intake's own statement before anything
   * else (create_mint_order's step 0: unknown or disabled user, another session version, a signed-out session ->
   * UnauthenticatedError 401; the row's role not among `allowedRoles` -> ForbiddenError 403).
   * The route hands over its ClaimedSessionUser; a caller holding a checked SessionUser adds
   * the session version it holds and the roles it allows. Required: no intake skips the check.
   */
  session: SessionToCheck
  /** the request body; validated (again) here, so every caller gets every rule */
  request: MintRequestInput
  /** the Idempotency-Key header, already checked for length by the caller */
  idempotencyKey?: string | null
  /** attempts of the mint_send job: the caller's configuration (MAX_ATTEMPTS, 5 by default) */
  maxAttempts: number
  /** the token contract (the caller's TOKEN_ADDRESS): a mint to the token itself is refused here, not only on chain */
  tokenAddress?: string
  /** what carries mint_send (QUEUE_TRANSPORT): graphile-worker (default) or SQS (public.enqueue_job either way) */
  transport?: QueueTransport
}

export type CreateMintOrderReturnType = ApiMintAccepted

type IntakeRow = { r_outcome: string; r_accepted: unknown; r_request_hash: string | null }

/**
 * Accepts a mint request. The request is validated here; then ONE statement, the SQL
 * function `create_mint_order` (db/functions/create_mint_order.sql), does the rest as one
 * transaction (the outbox): it checks the session against the user's row first
 * (`session`), writes the order, reserves its bars (free bars of the vault's latest bar
 * list, the request agreeing with the list: invariant 4); every order is
 * `awaiting_approval` with NO job, an 'approval_requested' event and an audit row: the job
 * comes once enough approvers signed its MintIntent (lib/web/approvals/approveMintOrder;
 * docs/decisions/043-approvals-are-signatures.md). Its intent deadline is fixed here (the
 * column's default: 7 days after the intake). All exist or none does. Never talks to the chain.
 *
 * - A bar not on the vault's latest list: BarNotInVaultError (422); a year or weight
 *   other than the list's: BarMismatchError (422); an amount other than the bars' fine
 *   weight: ValidationError on `amount` (422); a bar reserved by or backing another order:
 *   BarAlreadyUsedError (409), naming every such bar. Of concurrent requests for one bar
 *   exactly one wins (row locks in id order), the others get the 409.
 * - A recipient off the allowlist: RecipientNotAllowedError (422); above the per-order
 *   limit or the rolling 24 h cap: OverLimitError (422) (the cap's lock makes concurrent
 *   intakes check it one after the other): public.check_mint_controls, the rules' one home,
 *   which the approval and the worker call too (lib/controls/checkMintControls).
 * - Same user + Idempotency-Key: the same body gets the first 202 answer again and
 *   creates nothing; a different body is an IdempotencyConflictError. Requests with
 *   the same key are serialised by a transaction-scoped advisory lock, so a concurrent
 *   duplicate waits for the first and then sees its answer.
 * A refusal is raised inside the function, so a refused request writes nothing.
 * The call is a named prepared statement in autocommit: one round trip per order.
 */
export async function createMintOrder(db: Db, p: CreateMintOrderParameters): Promise<CreateMintOrderReturnType> {
  let prepared: ReturnType<typeof prepareCall>
  try {
    prepared = prepareCall(p)
  } catch (refusal) {
    // refused before the statement that checks the session: a session that no longer stands
    // still answers first (401, then 403), as the wrapper's order of checks says (docs/api.md)
    await checkSessionRow(db, { session: p.session })
    throw refusal
  }
  const { request, requestHash, call } = prepared

  let rows: IntakeRow[]
  try {
    rows = await db.$client.unsafe<IntakeRow[]>(call.text, call.values, { prepare: true })
  } catch (error) {
    throw intakeRefusal(error, { request, userId: p.session.id }) ?? error
  }

  const row = rows[0]
  if (!row) throw new Error('create_mint_order returned no row')
  if (row.r_outcome === 'replay' && (row.r_request_hash !== requestHash || !isAcceptedResponse(row.r_accepted))) {
    throw new IdempotencyConflictError()
  }
  const accepted = row.r_accepted
  if (!isAcceptedResponse(accepted))
    throw new Error(`create_mint_order answered ${row.r_outcome} without an accepted response`)
  // the stored answer is jsonb (keys reordered): answered in the API's order
  return accepted.status === 'pending'
    ? { orderId: accepted.orderId, jobId: accepted.jobId, status: accepted.status, statusUrl: accepted.statusUrl }
    : { orderId: accepted.orderId, status: accepted.status, statusUrl: accepted.statusUrl }
}

/**
 * Everything checked and built in TypeScript before the one statement;
 * throws a refusal (422, or 401 for an id that is not a uuid).
 */
function prepareCall(p: CreateMintOrderParameters) {
  // an id that is not a uuid names no user or session (a session minted by something else); the
  // uuid cast would answer a 500
  if (!isUuid(p.session.id) || !isUuid(p.session.sessionId)) throw new UnauthenticatedError()
  const request = parseMintRequest(p.request)
  if (p.tokenAddress && request.to.toLowerCase() === p.tokenAddress.toLowerCase()) {
    throw new ValidationError([{ path: 'to', message: 'The recipient cannot be the token contract itself.' }])
  }
  const requestHash = hashMintRequest(request)
  const orderId = randomUUID()
  const amountWei = ozToWei(request.amount)
  // every order waits for approver signatures (the contract's rule: at least one)
  const needsApproval = true
  const call = createMintOrderCall(
    createMintOrderArguments({
      orderId,
      session: p.session,
      request,
      requestHash,
      amountWei,
      needsApproval,
      idempotencyKey: p.idempotencyKey ?? null,
      maxAttempts: p.maxAttempts,
      transport: p.transport ?? 'postgres',
    }),
  )
  return { request, requestHash, call }
}

function isAcceptedResponse(value: unknown): value is ApiMintAccepted {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  if (typeof v.orderId !== 'string' || typeof v.statusUrl !== 'string') return false
  return (
    (v.status === 'pending' && typeof v.jobId === 'string') ||
    (v.status === 'awaiting_approval' && v.jobId === undefined)
  )
}
