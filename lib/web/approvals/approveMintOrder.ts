import { eq, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { mintOrders } from '@/db/schema/mint'
import { recordAudit } from '@/lib/admin/recordAudit'
import { checkMintControls } from '@/lib/controls/checkMintControls'
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
import { lockOrderAwaitingApproval } from './lockOrderAwaitingApproval'

export type ApproveMintOrderParameters = {
  /** as given in the URL; anything that is not a uuid is not found */
  orderId: string
  /** the approver or admin approving (never the requester) */
  user: Pick<SessionUser, 'id' | 'email' | 'role'>
  /** attempts of the mint_send job: the caller's configuration (MAX_ATTEMPTS) */
  maxAttempts: number
  /** QUEUE_TRANSPORT: a graphile-worker job (default) or the SQS outbox row */
  transport?: QueueTransport
}

export type ApproveMintOrderReturnType = ApiMintOrder

/**
 * The second person's yes (four eyes, docs/architecture.md invariant 6), in ONE transaction
 * with the order locked FOR UPDATE (lockOrderAwaitingApproval: 404, 403 self_approval,
 * 409 not_awaiting_approval):
 * 1. the order's bars are still reserved by it (checkBarsStillReserved, 409 conflict);
 * 2. the recipient allowlist and the limits, again, as they are now
 *    (lib/controls/checkMintControls: 422 recipient_not_allowed / over_limit; the order
 *    itself is left out of the rolling total, which already counts it);
 * 3. the order becomes `pending` with approved_by/at, and its `mint_send` job is added
 *    in the same transaction (the outbox: the job exists iff the approval committed),
 *    with the 'approved' and 'enqueued' events and an audit row.
 * Returns the order as GET /api/gold/mint/{orderId} shows it, read after the commit.
 */
export async function approveMintOrder(db: Db, p: ApproveMintOrderParameters): Promise<ApproveMintOrderReturnType> {
  if (!isUuid(p.orderId)) throw new NotFoundError({ what: 'Order' })
  const orderId = p.orderId.toLowerCase()

  await db.transaction(async (tx) => {
    const order = await lockOrderAwaitingApproval(tx, { orderId, user: p.user })
    await checkBarsStillReserved(tx, { orderId })
    await checkMintControls(tx, { to: order.toAddress, amountWei: order.amountWei, excludeOrderId: orderId })

    await tx
      .update(mintOrders)
      .set({ status: 'pending', approvedBy: p.user.id, approvedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(mintOrders.id, orderId))
    const what = `mint ${formatOrderAmount(order.amountWei.toString())} oz to ${order.toAddress}`
    await recordJobEvent(tx, {
      event: 'approved',
      task: TASK.mintSend,
      orderId,
      actor: p.user.email,
      detail: `approved by ${p.user.email}`,
    })
    const { jobId } = await enqueueMintSend(tx, {
      transport: p.transport ?? 'postgres',
      orderId,
      maxAttempts: p.maxAttempts,
      actor: p.user.email,
      detail: what,
    })
    await tx.update(mintOrders).set({ jobId }).where(eq(mintOrders.id, orderId))
    await recordAudit(tx, {
      actor: p.user,
      action: 'mint.approve',
      targetType: 'order',
      targetId: orderId,
      detail: { jobId: jobId.toString(), to: order.toAddress, amount: formatOrderAmount(order.amountWei.toString()) },
    })
  })

  return getMintOrderOrThrow(db, { orderId, user: p.user })
}
