import { eq, sql } from 'drizzle-orm'
import { getAddress, type Hex, isHex } from 'viem'
import type { Db } from '@/db/client'
import { mintOrders } from '@/db/schema/mint'
import { recordAudit } from '@/lib/admin/recordAudit'
import { checkMintControls } from '@/lib/controls/checkMintControls'
import { AlreadySignedError, InvalidSignatureError } from '@/lib/errors/approvals'
import type { QueueTransport } from '@/lib/jobs/addJob'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { isUuid } from '@/lib/mint/isUuid'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { checkBarsStillReserved } from './checkBarsStillReserved'
import { isSameIntent, judgeApprovalSignature } from './judgeApprovalSignature'
import { lockOrderAwaitingApproval } from './lockOrderAwaitingApproval'
import type { MinterReader } from './MinterReader'
import { readOrderIntent } from './readOrderIntent'

export type ApproveMintOrderParameters = {
  /** as given in the URL; anything that is not a uuid is not found */
  orderId: string
  /** the approver or admin signing (never the requester) */
  user: Pick<SessionUser, 'id' | 'email' | 'role'>
  /** the user's EIP-712 signature of the order's MintIntent (GET .../approval's typedData) */
  signature: string
  /** GoldMinter as the chain has it: its domain, its approvers and its rule */
  minter: MinterReader
  /** attempts of the mint_send job: the caller's configuration (MAX_ATTEMPTS) */
  maxAttempts: number
  /** QUEUE_TRANSPORT: a graphile-worker job (default) or the SQS outbox row */
  transport?: QueueTransport
}

export type ApproveMintOrderReturnType = ApiMintOrder

/**
 * One approver's signature of the order's MintIntent (docs/decisions/043), in ONE
 * transaction with the order locked FOR UPDATE (lockOrderAwaitingApproval: 404, 403
 * self_approval, 409 not_awaiting_approval), so two approvers racing run one after the other:
 * 1. the intent is rebuilt from the order and its bars (lib/mint/buildMintIntent.ts) and the
 *    signature judged by the chain's word (judgeApprovalSignature) before the lock is taken, so
 *    the lock is held for no chain read; under it the intent is read again (judged again only
 *    if it changed); an expired one, a signature that recovers to no key bound to this user, or a key that is
 *    not an approver on chain: 422 invalid_signature; this user or this key signed it
 *    already: 409 already_signed;
 * 2. the signature is stored ('signed' event, audit row);
 * 3. once `required` (GoldMinter.requiredApprovals(amount)) distinct approvers signed: the
 *    bars still reserved (checkBarsStillReserved), the controls again (checkMintControls),
 *    the order becomes `pending` with its `mint_send` job added in the same transaction
 *    (the outbox), with the 'approved' and 'enqueued' events.
 * Returns the order as GET /api/gold/mint/{orderId} shows it, read after the commit.
 */
export async function approveMintOrder(db: Db, p: ApproveMintOrderParameters): Promise<ApproveMintOrderReturnType> {
  if (!isUuid(p.orderId)) throw new NotFoundError({ what: 'Order' })
  const orderId = p.orderId.toLowerCase()
  if (!isHex(p.signature) || p.signature.length < 132)
    throw new InvalidSignatureError('The signature is not a 65-byte hex signature.')
  const signature = p.signature as Hex

  // judged before the lock (the chain's two reads and the recovery); under the lock the intent is read
  // again and judged again only if it changed meanwhile
  const early = await readOrderIntent(db, { orderId })
  const earlyVerdict = early ? await judgeApprovalSignature({ intent: early, signature, minter: p.minter }) : undefined

  await db.transaction(async (tx) => {
    const order = await lockOrderAwaitingApproval(tx, { orderId, user: p.user })
    const intent = await readOrderIntent(tx, { orderId })
    if (!intent) throw new NotFoundError({ what: 'Order' })
    if (intent.deadline.getTime() <= Date.now())
      throw new InvalidSignatureError(`The order's intent expired at ${intent.deadline.toISOString()}.`)
    const { signer, isApprover, required } =
      early && earlyVerdict && isSameIntent(early, intent)
        ? earlyVerdict
        : await judgeApprovalSignature({ intent, signature, minter: p.minter })
    const keys = await tx.execute<{ address: string }>(
      sql`select address from user_signing_keys where user_id = ${p.user.id}::uuid`,
    )
    const bound = signer !== undefined && keys.some((k) => k.address === signer.toLowerCase())
    if (!signer || !bound)
      throw new InvalidSignatureError(
        "The signature does not recover to a signing key bound to you over this order's intent.",
      )
    if (!isApprover) throw new InvalidSignatureError(`Your key ${signer} is not an approver on chain.`)
    const inserted = await tx.execute<{ one: number }>(sql`
      insert into mint_order_signatures (order_id, user_id, signer_address, signature)
      values (${orderId}::uuid, ${p.user.id}::uuid, ${signer.toLowerCase()}, ${signature})
      on conflict do nothing returning 1 as one`)
    if (inserted.length === 0) throw new AlreadySignedError()

    const [{ n } = { n: 0 }] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from mint_order_signatures where order_id = ${orderId}::uuid`,
    )
    const amount = formatOrderAmount(order.amountWei.toString())
    await recordJobEvent(tx, {
      event: 'signed',
      task: TASK.mintSend,
      orderId,
      actor: p.user.email,
      detail: `signed by ${p.user.email} with ${getAddress(signer)} (${n} of ${required})`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'mint.sign',
      targetType: 'order',
      targetId: orderId,
      detail: { signer: getAddress(signer), signatures: n, required, to: order.toAddress, amount },
    })
    if (n < required) return

    await checkBarsStillReserved(tx, { orderId })
    await checkMintControls(tx, { to: order.toAddress, amountWei: order.amountWei, excludeOrderId: orderId })
    await tx
      .update(mintOrders)
      .set({ status: 'pending', approvedBy: p.user.id, approvedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(mintOrders.id, orderId))
    await recordJobEvent(tx, {
      event: 'approved',
      task: TASK.mintSend,
      orderId,
      actor: p.user.email,
      detail: `approved: ${n} of ${required} approver signatures`,
    })
    const { jobId } = await enqueueMintSend(tx, {
      transport: p.transport ?? 'postgres',
      orderId,
      maxAttempts: p.maxAttempts,
      actor: p.user.email,
      detail: `mint ${amount} oz to ${order.toAddress}`,
    })
    await tx.update(mintOrders).set({ jobId }).where(eq(mintOrders.id, orderId))
    await recordAudit(tx, {
      actor: p.user,
      action: 'mint.approve',
      targetType: 'order',
      targetId: orderId,
      detail: { jobId: jobId.toString(), to: order.toAddress, amount, signatures: n },
    })
  })

  return getMintOrderOrThrow(db, { orderId, user: p.user })
}
