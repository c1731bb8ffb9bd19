import { redactSecrets } from '@/lib/errors/redactSecrets'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { MintRequest } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { withTraceparent } from '@/lib/telemetry/traceparent'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import type { SessionToCheck } from '@/lib/web/auth/ClaimedSessionUser'
import { ValidationError } from '@/lib/web/errors/request'
import type { CreateMintOrderArgument } from './createMintOrderCall'
import { statusUrlFor } from './statusUrlFor'

export type CreateMintOrderArgumentsParameters = {
  /** the new order's id (a v4 uuid, as gen_random_uuid makes): known before the call, so the job key and answer are built here */
  orderId: string
  /** who asks: the function checks it against the user's row first (disabled, session version, role) */
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
  transport: 'postgres' | 'sqs'
}

/**
 * The arguments of `create_mint_order` (db/migrations/0016_intake_checks_session.sql), in
 * its parameter order, each with its cast: the intake's (lib/web/mint/createMintOrder.ts) and
 * the bench's raw-SQL baseline's (bench/intake/insertOrderRaw.ts), so both send the same
 * statement with the same values. The texts (timeline detail, audit detail), the job's key
 * and payload and the 202 answer are written here, not in SQL: one home for each.
 */
export function createMintOrderArguments(a: CreateMintOrderArgumentsParameters): CreateMintOrderArgument[] {
  const { request, orderId } = a
  const proof = request.vaultProof
  const what = `mint ${request.amount} oz to ${request.to}`
  const accepted = {
    orderId,
    status: a.needsApproval ? 'awaiting_approval' : 'pending',
    statusUrl: statusUrlFor(orderId),
  }
  return [
    [orderId, 'uuid'],
    [a.session.id, 'uuid'],
    [a.session.sessionVersion, 'int'],
    // a Postgres array literal: role names are plain words (the user_role enum), nothing to quote
    [`{${a.session.allowedRoles.join(',')}}`, 'text[]'],
    [a.session.email, 'text'],
    [request.to, 'text'],
    [canonical(request.amount, 3), 'numeric'],
    [a.amountWei.toString(), 'numeric'],
    [proof.vault, 'text'],
    [proof.receiptRef, 'text'],
    [proof.documentSha256, 'text'],
    [a.idempotencyKey, 'text'],
    [a.requestHash, 'text'],
    [JSON.stringify(barArguments(request)), 'text::jsonb'],
    [a.needsApproval, 'boolean'],
    [JSON.stringify(accepted), 'text::jsonb'],
    [TASK.mintSend, 'text'],
    [mintSendJobKey(orderId), 'text'],
    // the job's payload, with the mint's trace when tracing is on (issue 17: its attempts join the intake's trace)
    [JSON.stringify(withTraceparent({ orderId })), 'text::jsonb'],
    [a.maxAttempts, 'int'],
    [redactSecrets(a.needsApproval ? `${what}: awaits a second person's approval` : what), 'text'],
    [JSON.stringify({ to: request.to, amount: request.amount, vault: proof.vault }), 'text::jsonb'],
    [a.transport, 'text'],
  ]
}

/** Each bar as the function compares it: its keys (serial + refiner, normalised) and the values given, or null. */
function barArguments(request: MintRequest) {
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
