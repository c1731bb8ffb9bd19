import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import { mintOrders } from '@/db/schema/mint'
import { ValidationError } from '@/lib/errors'
import type { SessionUser } from '@/lib/auth/SessionUser'
import { IdempotencyConflictError } from '@/lib/errors'
import { checkMintControls } from '@/lib/controls/checkMintControls'
import { recordAudit } from '@/lib/admin/recordAudit'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { ozToWei } from '@/lib/money/ozToWei'
import { reserveBars } from '@/lib/vault/reserveBars'
import { hashMintRequest } from './hashMintRequest'
import type { MintRequestInput } from './mintRequestSchema'
import { parseMintRequest } from './parseMintRequest'
import { statusUrlFor } from './statusUrlFor'
import type { MintAcceptedResponse } from './types'

export type CreateMintOrderHooks = {
  /**
   * TEST ONLY: runs inside the transaction after every row and the job are written,
   * just before the commit. Throwing here must leave nothing behind.
   */
  beforeCommit?: (tx: Tx, accepted: MintAcceptedResponse) => Promise<void>
}

export type CreateMintOrderParameters = {
  user: Pick<SessionUser, 'id' | 'email'>
  /** the request body; validated (again) here, so every caller gets every rule */
  request: MintRequestInput
  /** the Idempotency-Key header, already checked for length by the caller */
  idempotencyKey?: string | null
  /** attempts of the mint_send job: the caller's configuration (MAX_ATTEMPTS, 5 by default) */
  maxAttempts: number
  /**
   * Four eyes: an order of this many wei or more waits for a second person
   * (`awaiting_approval`, no job; lib/approvals/approveMintOrder adds it). The caller's
   * configuration (APPROVAL_THRESHOLD_OZ, 0 by default: every order); null: never
   * (tests of other things, which then get a job at once).
   */
  approvalThresholdWei: bigint | null
  hooks?: CreateMintOrderHooks
  /** the token contract (the caller's TOKEN_ADDRESS): a mint to the token itself is refused here, not only on chain */
  tokenAddress?: string
}

export type CreateMintOrderReturnType = MintAcceptedResponse

/**
 * Accepts a mint request: in ONE transaction (the outbox) it writes the order, reserves
 * its bars (lib/vault/reserveBars: free bars of the vault's latest bar list, the request
 * agreeing with the list), and either
 * - below the approval threshold: the order is `pending` and its `mint_send` job is added
 *   with its history row and 'enqueued' event; or
 * - at or above it: the order is `awaiting_approval` with NO job, an
 *   'approval_requested' event and an audit row (the job comes with the approval).
 * All exist or none does. Never talks to the chain.
 *
 * - A bar not on the vault's latest list: BarNotInVaultError (422); a year or weight
 *   other than the list's: BarMismatchError (422); a bar reserved by or backing another
 *   order: BarAlreadyUsedError (409), naming every such bar. Of concurrent requests for
 *   one bar exactly one wins, the others get the 409.
 * - A recipient off the allowlist: RecipientNotAllowedError (422); above the per-order
 *   limit or the rolling 24 h cap: OverLimitError (422) (lib/controls/checkMintControls,
 *   whose lock makes concurrent intakes check the cap one after the other).
 * - Same user + Idempotency-Key: the same body gets the first 202 answer again and
 *   creates nothing; a different body is an IdempotencyConflictError. Requests with
 *   the same key are serialised by a transaction-scoped advisory lock, so a concurrent
 *   duplicate waits for the first and then sees its answer.
 */
export async function createMintOrder(db: Db, p: CreateMintOrderParameters): Promise<CreateMintOrderReturnType> {
  const request = parseMintRequest(p.request)
  if (p.tokenAddress && request.to.toLowerCase() === p.tokenAddress.toLowerCase()) {
    throw new ValidationError([{ path: 'to', message: 'The recipient cannot be the token contract itself.' }])
  }
  const requestHash = hashMintRequest(request)
  const idempotencyKey = p.idempotencyKey ?? null

  return db.transaction(async (tx) => {
    if (idempotencyKey !== null) {
      const replay = await findReplay(tx, { userId: p.user.id, idempotencyKey, requestHash })
      if (replay) return replay
    }

    const amountWei = ozToWei(request.amount)
    const needsApproval = p.approvalThresholdWei !== null && amountWei >= p.approvalThresholdWei
    const [order] = await tx
      .insert(mintOrders)
      .values({
        toAddress: request.to,
        amountWei: amountWei.toString(),
        status: needsApproval ? 'awaiting_approval' : 'pending',
        vault: request.vaultProof.vault,
        receiptRef: request.vaultProof.receiptRef,
        documentSha256: request.vaultProof.documentSha256,
        requestedBy: p.user.id,
        idempotencyKey,
        requestHash,
      })
      .returning({ id: mintOrders.id })
    if (!order) throw new Error('insert into mint_orders returned no row')
    const orderId = order.id

    const reserved = await reserveBars(tx, { orderId, vault: request.vaultProof.vault, bars: request.vaultProof.bars, amount: request.amount })
    // the allowlist and the limits, on the bars' weight; holds the daily cap's lock until commit
    await checkMintControls(tx, { to: request.to, amountWei: ozToWei(reserved.fineOz), excludeOrderId: orderId })

    const what = `mint ${request.amount} oz to ${request.to}`
    if (needsApproval) {
      await recordJobEvent(tx, { event: 'approval_requested', task: TASK.mintSend, orderId, actor: p.user.email, detail: `${what}: awaits a second person's approval` })
      await recordAudit(tx, {
        actor: p.user,
        action: 'mint.approval_requested',
        targetType: 'order',
        targetId: orderId,
        detail: { to: request.to, amount: request.amount, vault: request.vaultProof.vault },
      })
      const accepted: MintAcceptedResponse = { orderId, status: 'awaiting_approval', statusUrl: statusUrlFor(orderId) }
      await tx.update(mintOrders).set({ acceptedResponse: accepted }).where(eq(mintOrders.id, orderId))
      await p.hooks?.beforeCommit?.(tx, accepted)
      return accepted
    }

    const { jobId } = await addJob(tx, {
      task: TASK.mintSend,
      payload: { orderId },
      jobKey: mintSendJobKey(orderId),
      maxAttempts: p.maxAttempts,
      orderId,
      actor: p.user.email,
      detail: what,
    })

    const accepted: MintAcceptedResponse = {
      orderId,
      jobId: jobId.toString(),
      status: 'pending',
      statusUrl: statusUrlFor(orderId),
    }
    await tx.update(mintOrders).set({ jobId, acceptedResponse: accepted }).where(eq(mintOrders.id, orderId))

    await p.hooks?.beforeCommit?.(tx, accepted)
    return accepted
  })
}

async function findReplay(
  tx: Tx,
  p: { userId: string; idempotencyKey: string; requestHash: string },
): Promise<MintAcceptedResponse | null> {
  // One holder per (user, key) at a time, until commit or rollback: a concurrent
  // duplicate waits here, then reads what the first one committed.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`mint_orders.idempotency:${p.userId}:${p.idempotencyKey}`}, 0))`,
  )
  const [existing] = await tx
    .select({ requestHash: mintOrders.requestHash, acceptedResponse: mintOrders.acceptedResponse })
    .from(mintOrders)
    .where(and(eq(mintOrders.requestedBy, p.userId), eq(mintOrders.idempotencyKey, p.idempotencyKey)))
    .limit(1)
  if (!existing) return null
  if (existing.requestHash !== p.requestHash || !isAcceptedResponse(existing.acceptedResponse)) {
    throw new IdempotencyConflictError()
  }
  return existing.acceptedResponse
}

function isAcceptedResponse(value: unknown): value is MintAcceptedResponse {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  if (typeof v.orderId !== 'string' || typeof v.statusUrl !== 'string') return false
  return (v.status === 'pending' && typeof v.jobId === 'string') || (v.status === 'awaiting_approval' && v.jobId === undefined)
}
