import type { QueueTransport } from '@/lib/jobs/addJob'
import { buildJobSpec, type JobSpec } from '@/lib/jobs/buildJobSpec'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import type { SessionToCheck } from '@/lib/web/auth/ClaimedSessionUser'
import { ValidationError } from '@/lib/web/errors/request'
import { mintSendJob } from '@/lib/web/queue/mintSendJob'
import type { MintRequest } from '../../mint/mintRequestSchema'
import { statusUrlFor } from './statusUrlFor'

export type CreateMintOrderArgumentsParameters = {
  /**
   * the new order's id (a v4 uuid, as gen_random_uuid makes): known
   * before the call, so the job key and answer are built here
   */
  orderId: string
  /** who asks: the function checks it against the user's row first (disabled, session version, signed out, role) */
  session: SessionToCheck
  /** a validated request (lib/web/mint/parseMintRequest) */
  request: MintRequest
  requestHash: string
  /** the request's amount in wei */
  amountWei: bigint
  /** at or above the approval threshold: awaiting_approval, no job */
  needsApproval: boolean
  idempotencyKey: string | null
  maxAttempts: number
  transport: QueueTransport
}

/**
 * The named arguments of `create_mint_order` (db/functions/create_mint_order.sql), one object: its one jsonb parameter.
 */
export type CreateMintOrderIntake = {
  order_id: string
  user_id: string
  session_id: string
  session_version: number
  allowed_roles: readonly (string | null)[]
  actor: string
  to_address: string
  /** fine oz, 3 decimals, as numeric reads it exactly */
  amount: string
  amount_wei: string
  vault: string
  receipt_ref: string
  document_sha256: string
  idempotency_key: string | null
  request_hash: string
  bars: BarArgument[]
  needs_approval: boolean
  /** the 202 answer; the function adds the job's id to it */
  accepted: { orderId: string; status: 'pending' | 'awaiting_approval'; statusUrl: string }
  /** the order's mint_send as public.enqueue_job takes it (lib/jobs/buildJobSpec) */
  job: JobSpec
  audit_detail: { to: string; amount: string; vault: string }
}

/**
 * The arguments of `create_mint_order`, named, as one object: the intake's
 * (lib/web/mint/createMintOrder.ts) and the bench's raw-SQL baseline's
 * (bench/intake/insertOrderRaw.ts), so both send the same statement with the same values.
 * The texts (timeline detail, audit detail), the job (lib/jobs' mintSendJob and
 * buildJobSpec, as every other enqueue) and the 202 answer are written here, not in SQL:
 * one home for each.
 */
export function createMintOrderArguments(a: CreateMintOrderArgumentsParameters): CreateMintOrderIntake {
  const { request, orderId } = a
  const proof = request.vaultProof
  const what = `mint ${request.amount} oz to ${request.to}`
  return {
    order_id: orderId,
    user_id: a.session.id,
    session_id: a.session.sessionId,
    session_version: a.session.sessionVersion,
    allowed_roles: a.session.allowedRoles,
    actor: a.session.email,
    to_address: request.to,
    amount: canonical(request.amount, 3),
    amount_wei: a.amountWei.toString(),
    vault: proof.vault,
    receipt_ref: proof.receiptRef,
    document_sha256: proof.documentSha256,
    idempotency_key: a.idempotencyKey,
    request_hash: a.requestHash,
    bars: barArguments(request),
    needs_approval: a.needsApproval,
    accepted: {
      orderId,
      status: a.needsApproval ? 'awaiting_approval' : 'pending',
      statusUrl: statusUrlFor(orderId),
    },
    // its detail is the intake's timeline event's: 'enqueued', or 'approval_requested' for an order that waits
    job: buildJobSpec(
      mintSendJob({
        orderId,
        maxAttempts: a.maxAttempts,
        actor: a.session.email,
        detail: a.needsApproval ? `${what}: awaits approver signatures` : what,
        transport: a.transport,
      }),
    ),
    audit_detail: { to: request.to, amount: request.amount, vault: proof.vault },
  }
}

type BarArgument = {
  i: number
  sk: string
  rk: string
  year: number | null
  grossOz: string | null
  fineness: string | null
  fineOz: string | null
}

/** Each bar as the function compares it: its keys (serial + refiner, normalised) and the values given, or null. */
function barArguments(request: MintRequest): BarArgument[] {
  return request.vaultProof.bars.map((bar, i) => {
    const serial = normalizeBarKey(bar.serial)
    const refiner = normalizeBarKey(bar.refiner)
    if (!serial.ok) throw new ValidationError([{ path: `vaultProof.bars.${i}.serial`, message: serial.message }])
    if (!refiner.ok) throw new ValidationError([{ path: `vaultProof.bars.${i}.refiner`, message: refiner.message }])
    return {
      i,
      sk: serial.key,
      rk: refiner.key,
      year: bar.year ?? null,
      grossOz: bar.grossOz === undefined ? null : canonical(bar.grossOz, 3),
      fineness: bar.fineness === undefined ? null : canonical(bar.fineness, 2),
      fineOz: bar.fineOz === undefined ? null : canonical(bar.fineOz, 3),
    }
  })
}

/** A validated decimal in the one spelling Postgres's numeric reads exactly ('401.' -> '401.000'). */
function canonical(value: string, decimals: number): string {
  return formatDecimal(parseDecimal(value, { decimals }), { decimals, minFraction: decimals })
}
