import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '@/db/client'
import { mintOrderBars, mintOrders } from '@/db/schema/mint'
import { vaultBars } from '@/db/schema/vault'
import { ValidationError } from '@/lib/errors'
import type { SessionUser } from '@/lib/auth/SessionUser'
import { BarAlreadyUsedError, IdempotencyConflictError, type UsedBar } from '@/lib/errors'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { ozToWei } from '@/lib/money/ozToWei'
import { hashMintRequest } from './hashMintRequest'
import { barKey } from './barKey'
import type { MintRequest, MintRequestInput } from './mintRequestSchema'
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
  hooks?: CreateMintOrderHooks
  /** the token contract (the caller's TOKEN_ADDRESS): a mint to the token itself is refused here, not only on chain */
  tokenAddress?: string
}

export type CreateMintOrderReturnType = MintAcceptedResponse

/**
 * Accepts a mint request: in ONE transaction (the outbox) it writes the order
 * (pending), registers and claims its bars, and adds the `mint_send` job with its
 * history row and 'enqueued' event. Both exist or neither does. Never talks to the chain.
 *
 * - A bar (serial + refiner) already registered backs another order:
 *   BarAlreadyUsedError naming every such bar. Concurrent claims of one bar are decided
 *   by the unique constraint: exactly one transaction wins, the others get the 409.
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

    const [order] = await tx
      .insert(mintOrders)
      .values({
        toAddress: request.to,
        amountWei: ozToWei(request.amount).toString(),
        status: 'pending',
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

    const barIds = await claimBars(tx, request.vaultProof.bars)
    await tx.insert(mintOrderBars).values(barIds.map((barId, position) => ({ barId, orderId, position })))

    const { jobId } = await addJob(tx, {
      task: TASK.mintSend,
      payload: { orderId },
      jobKey: mintSendJobKey(orderId),
      maxAttempts: p.maxAttempts,
      orderId,
      actor: p.user.email,
      detail: `mint ${request.amount} oz to ${request.to}`,
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

/**
 * Registers the bars and returns their ids in request order. Rows are inserted in one
 * statement, sorted by bar key so that two requests sharing bars lock them in the same
 * order (no deadlock). ON CONFLICT DO NOTHING waits for a concurrent claim of the same
 * bar to commit or roll back, then skips it if it won: a skipped bar is already used.
 */
async function claimBars(tx: Tx, bars: MintRequest['vaultProof']['bars']): Promise<string[]> {
  const exact = (b: { serial: string; refiner: string }) => `${b.serial}\u0000${b.refiner}`
  const sorted = bars
    .map((bar, index) => ({ bar, index }))
    .sort((a, b) => compare(barKey(a.bar), barKey(b.bar)) || compare(exact(a.bar), exact(b.bar)))
  const inserted = await tx
    .insert(vaultBars)
    .values(
      sorted.map(({ bar }) => ({
        serial: bar.serial,
        refiner: bar.refiner,
        year: bar.year,
        grossOz: bar.grossOz,
        fineness: bar.fineness,
        fineOz: bar.fineOz,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: vaultBars.id, serial: vaultBars.serial, refiner: vaultBars.refiner })

  const idByBar = new Map(inserted.map((row) => [exact(row), row.id]))
  const used: UsedBar[] = []
  const ids: string[] = []
  bars.forEach((bar, index) => {
    const id = idByBar.get(exact(bar))
    if (id === undefined) used.push({ serial: bar.serial, refiner: bar.refiner, index })
    else ids.push(id)
  })
  if (used.length > 0) throw new BarAlreadyUsedError({ bars: used })
  return ids
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
  return (
    typeof v.orderId === 'string' && typeof v.jobId === 'string' && v.status === 'pending' && typeof v.statusUrl === 'string'
  )
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
